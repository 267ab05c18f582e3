import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calcCommissionDecimal } from './commission.js';
import { calcPaymentTaxDecimal } from './payment-tax.js';
import { pctDecimal } from './rounding.js';
import {
  D,
  addMonths,
  calcChargeback,
  calcCommission,
  calcDifferentialChargeback,
  calcPaymentTax,
  calcSettlementAggregate,
  generateInstallmentPlan,
  maskAccountNo,
  maskEmail,
  maskName,
  maskPhone,
  maskResidentNo,
  monthsElapsed,
  pct,
  pct0,
  round0,
  round2,
  splitInstallments,
  sum,
  type ChargebackRuleRow,
  type InstallmentRatio,
} from './index.js';

const RUNS = { numRuns: 500 };

/** A scaled integer written as a plain decimal string: (12345n, 2) -> '123.45'. */
function plain(v: bigint, scale: number): string {
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(scale + 1, '0');
  const cut = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}${scale > 0 ? `.${digits.slice(cut)}` : ''}`;
}

/** numeric(15,2) money >= 0, as string or Decimal (both input forms are accepted). */
const money = fc
  .tuple(fc.bigInt({ min: 0n, max: 999_999_999_999_999n }), fc.boolean())
  .map(([c, asDecimal]) => (asDecimal ? new D(plain(c, 2)) : plain(c, 2)));
const signedMoney = fc.bigInt({ min: -999_999_999_999_999n, max: 999_999_999_999_999n }).map((c) => plain(c, 2));
/** numeric(7,4) rate in percent. */
const rate = fc.bigInt({ min: 0n, max: 9_999_999n }).map((r) => plain(r, 4));
const percent = fc.bigInt({ min: 0n, max: 1_000_000n }).map((r) => plain(r, 4));
/** Any decimal with up to 8 places (exercises the decimal.js fallback of the fast paths). */
const anyDecimal = fc
  .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 8 }))
  .map(([v, s]) => plain(v, s));
const isoDate = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2060-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('rounding properties', () => {
  it('rounding is idempotent at scale 2 and 0', () => {
    fc.assert(
      fc.property(anyDecimal, (x) => {
        expect(round2(round2(x)).eq(round2(x))).toBe(true);
        expect(round0(round0(x)).eq(round0(x))).toBe(true);
      }),
      RUNS,
    );
  });

  it('rounding moves a value by at most half a unit', () => {
    fc.assert(
      fc.property(anyDecimal, (x) => {
        expect(round2(x).minus(x).abs().lte('0.005')).toBe(true);
        expect(round0(x).minus(x).abs().lte('0.5')).toBe(true);
      }),
      RUNS,
    );
  });

  it('the fixed-point pct equals decimal.js for every amount and rate', () => {
    fc.assert(
      fc.property(fc.oneof(signedMoney, anyDecimal), fc.oneof(rate, anyDecimal), (a, r) => {
        expect(pct(a, r).eq(pctDecimal(a, r, 2))).toBe(true);
        expect(pct0(a, r).eq(pctDecimal(a, r, 0))).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('commission properties', () => {
  it('the fixed-point commission equals the decimal.js rule', () => {
    fc.assert(
      fc.property(money, fc.option(rate), fc.option(rate), (premium, companyRate, payoutRate) => {
        const fast = calcCommission({ premium, companyRate, payoutRate });
        const slow = calcCommissionDecimal({ premium, companyRate, payoutRate });
        expect([fast.companyAmount, fast.agentAmount, fast.tax].map((d) => d.toFixed(2))).toEqual(
          [slow.companyAmount, slow.agentAmount, slow.tax].map((d) => d.toFixed(2)),
        );
      }),
      RUNS,
    );
  });

  it('agent amount never exceeds the company amount at payout <= 100 % and tax is 3.3 % of it', () => {
    fc.assert(
      fc.property(money, rate, percent, (premium, companyRate, payoutRate) => {
        const r = calcCommission({ premium, companyRate, payoutRate });
        expect(r.agentAmount.lte(r.companyAmount)).toBe(true);
        expect(r.tax.eq(pct(r.agentAmount, '3.3'))).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('payment and settlement properties', () => {
  const taxType = fc.constantFrom('BUSINESS_INCOME', 'OTHER_INCOME');
  const vatType = fc.constantFrom('NONE', 'EXEMPT', 'TAXABLE');

  it('net = amount - incomeTax - localTax + vat - deduction, always', () => {
    fc.assert(
      fc.property(money, taxType, vatType, fc.option(money), (amount, t, v, deduction) => {
        const r = calcPaymentTax({ amount, taxType: t, vatType: v, deduction });
        expect(r.net.eq(r.amount.minus(r.incomeTax).minus(r.localTax).plus(r.vat).minus(r.deduction))).toBe(true);
        // Income taxes are whole won (rule 5); VAT is rule 1's percentage at scale 2 (DECISIONS).
        expect(r.incomeTax.isInteger() && r.localTax.isInteger() && r.vat.decimalPlaces() <= 2).toBe(true);
        if (v !== 'TAXABLE') expect(r.vat.isZero()).toBe(true);
      }),
      RUNS,
    );
  });

  it('the fixed-point payment tax equals the decimal.js rule, also with configured rates', () => {
    const rates = fc.record({ businessIncome: rate, otherIncome: rate, localIncome: rate, vat: rate });
    fc.assert(
      fc.property(fc.oneof(money, anyDecimal.map((s) => s.replace('-', ''))), taxType, vatType, rates, (amount, t, v, r) => {
        const fast = calcPaymentTax({ amount, taxType: t, vatType: v }, r);
        const slow = calcPaymentTaxDecimal({ amount, taxType: t, vatType: v }, r);
        for (const key of ['amount', 'incomeRate', 'incomeTax', 'localTax', 'vat', 'deduction', 'net'] as const) {
          expect(fast[key].eq(slow[key])).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('settlement net = gross - tax and gross is the signed sum', () => {
    fc.assert(
      fc.property(fc.array(signedMoney, { minLength: 6, maxLength: 6 }), (v) => {
        const [recruit, maintain, override, exceptionPlus, exceptionMinus, chargeback] = v as [string, string, string, string, string, string];
        const r = calcSettlementAggregate({ recruit, maintain, override, exceptionPlus, exceptionMinus, chargeback });
        const gross = new D(recruit).plus(maintain).plus(override).plus(exceptionPlus).minus(chargeback).minus(exceptionMinus);
        expect(r.gross.eq(gross)).toBe(true);
        expect(r.net.eq(r.gross.minus(r.tax))).toBe(true);
        expect(r.tax.eq(pct(gross, '3.3'))).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('chargeback and installment properties', () => {
  it('differential chargeback lies in [0, original] for bands up to 100 %', () => {
    fc.assert(
      fc.property(money, percent, isoDate, fc.integer({ min: 0, max: 400 }), (original, p, contractDate, months) => {
        const r = calcDifferentialChargeback({
          grades: [{ monthsFrom: 0, monthsTo: null, percent: p, effectiveFrom: '1900-01-01', effectiveTo: null }],
          contractDate,
          terminationDate: addMonths(contractDate, months),
          originalCommission: original,
        });
        expect(r.monthsElapsed).toBe(months);
        expect(r.chargebackAmount.gte(0) && r.chargebackAmount.lte(round0(original))).toBe(true);
      }),
      RUNS,
    );
  });

  it('chargeback installments are non-negative and sum to the chargeback', () => {
    fc.assert(
      fc.property(money, rate, fc.integer({ min: 1, max: 36 }), (base, cbRate, n) => {
        const rule: ChargebackRuleRow = {
          companyCode: 'C',
          insuranceType: 'T',
          lapseMonthFrom: 0,
          lapseMonthTo: null,
          cbRate,
          includeOverride: false,
          installmentAllowed: true,
          maxInstallments: n,
          effectiveFrom: '2000-01-01',
          effectiveTo: null,
        };
        const r = calcChargeback({
          rules: [rule],
          companyCode: 'C',
          insuranceType: 'T',
          contractDate: '2024-01-01',
          lapseDate: '2024-05-01',
          settleMonth: '202405',
          base,
        });
        expect(r.installments).toHaveLength(n);
        expect(sum(r.installments.map((i) => i.amount)).eq(r.cbAmount)).toBe(true);
        expect(r.installments.every((i) => i.amount.gte(0))).toBe(true);
      }),
      RUNS,
    );
  });

  it('splitInstallments rows sum to the original', () => {
    fc.assert(
      fc.property(money, fc.integer({ min: 1, max: 120 }), (amount, n) => {
        expect(sum(splitInstallments(amount, n)).eq(amount)).toBe(true);
      }),
      RUNS,
    );
  });

  it('installment plan rows sum to the original total', () => {
    // Random ratio sets over distinct sequences that add up to exactly 100.0000 %.
    const ratioSet = fc
      .uniqueArray(fc.tuple(fc.integer({ min: 1, max: 7 }), fc.option(fc.integer({ min: 1, max: 12 }))), {
        minLength: 1,
        maxLength: 20,
        selector: ([y, mth]) => (y - 1) * 12 + (mth ?? 1),
      })
      .chain((keys) =>
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: keys.length, maxLength: keys.length }).map((weights) => {
          const total = weights.reduce((a, b) => a + b, 0);
          let left = 1_000_000n;
          return keys.map(([planYear, planMonth], i): InstallmentRatio => {
            const share = i === keys.length - 1 ? left : (BigInt(weights[i]!) * 1_000_000n) / BigInt(total);
            left -= share;
            return { planYear, planMonth, ratioPercent: plain(share, 4) };
          });
        }),
      )
      .filter((ratios) => ratios.every((r) => r.ratioPercent !== '0.0000'));
    fc.assert(
      fc.property(ratioSet, money, (ratios, total) => {
        const rows = generateInstallmentPlan({ ratios, firstSettleMonth: '202401', total });
        expect(sum(rows.map((r) => r.amount)).eq(total)).toBe(true);
        expect(rows.map((r) => r.sequence)).toEqual([...rows.map((r) => r.sequence)].sort((a, b) => a - b));
      }),
      RUNS,
    );
  });
});

describe('calendar properties', () => {
  it('monthsElapsed counts exactly the months added, and one less a day before', () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: 1, max: 600 }), (from, k) => {
        const to = addMonths(from, k);
        expect(monthsElapsed(from, to)).toBe(k);
        const dayBefore = new Date(Date.parse(`${to}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
        expect(monthsElapsed(from, dayBefore)).toBe(k - 1);
        expect(monthsElapsed(to, from)).toBe(-k);
      }),
      RUNS,
    );
  });
});

describe('masking properties', () => {
  const text = fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' });
  const digitsOf = (s: string) => s.replace(/\D/g, '');

  it('a masked name reveals at most its first and last character', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 3, maxLength: 20, unit: fc.constantFrom(...'가나다라마바사abcXYZ') }), (name) => {
        const masked = maskName(name);
        const chars = Array.from(masked);
        expect(chars.length).toBe(Array.from(name).length);
        expect(chars.slice(1, -1).every((c) => c === '*')).toBe(true);
      }),
      RUNS,
    );
  });

  it('a masked phone number of 10+ digits reveals at most 7 digits, the last 4 among them', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^0\d{9,12}$/), (phone) => {
        const masked = maskPhone(phone);
        expect(digitsOf(masked).length).toBeLessThanOrEqual(7);
        expect(masked.endsWith(phone.slice(-4))).toBe(true);
      }),
      RUNS,
    );
  });

  it('a masked resident number reveals at most six digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{6}-?\d{7}$/), (rrn) => {
        expect(digitsOf(maskResidentNo(rrn))).toBe(digitsOf(rrn).slice(0, 6));
      }),
      RUNS,
    );
  });

  it('a masked account number reveals only its first group', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{2,6}(-\d{1,8}){0,3}$/), (account) => {
        const masked = maskAccountNo(account);
        const firstGroup = account.includes('-') ? account.slice(0, account.indexOf('-')) : account.slice(0, 3);
        expect(masked.length).toBe(account.length);
        expect(digitsOf(masked)).toBe(firstGroup);
      }),
      RUNS,
    );
  });

  it('a masked e-mail reveals at most the first character and the domain', () => {
    fc.assert(
      fc.property(fc.emailAddress(), text.filter((s) => !s.includes('@')), (email, other) => {
        const domain = email.slice(email.lastIndexOf('@'));
        expect(maskEmail(email)).toBe(`${email[0]}***${domain}`);
        expect(maskEmail(other)).toBe(`${Array.from(other)[0]}***`);
      }),
      RUNS,
    );
  });
});
