import { describe, expect, it } from 'vitest';
import {
  DomainError,
  applyDeductions,
  buildOverrideIndex,
  calcChargeback,
  calcCommission,
  calcDifferentialChargeback,
  calcOverrides,
  calcPaymentTax,
  calcSettlementAggregate,
  checkInstallmentYears,
  checkRegulatoryLimit,
  commissionYearInMonth,
  formatMoney,
  generateInstallmentPlan,
  lastDayOfMonth,
  lastMonthOfQuarter,
  lookupChargebackGrade,
  lookupCommissionRate,
  lookupRegulatoryLimit,
  maskAccountNo,
  maskEmail,
  maskName,
  maskPhone,
  maskResidentNo,
  monthsElapsed,
  pct,
  pct0,
  quarterOfSettleMonth,
  resolveSuccession,
  round0,
  round2,
  type ChargebackGradeRow,
  type ChargebackRuleRow,
  type CommissionRateRow,
  type Dec,
  type InstallmentRatio,
  type OverrideRuleRow,
  type RegulatoryLimitRow,
  type SuccessionRow,
} from './index.js';

/**
 * Hand-computed golden vectors. Every expected value was worked out by hand; the arithmetic is in
 * the comment above each row ("=>" marks the HALF_UP step). Money compares as a 2-place string,
 * scale-0 amounts as integers.
 */
interface Vector {
  name: string;
  actual: () => unknown;
  expected: unknown;
}

const m = (d: Dec): string => d.toFixed(2);
const w = (d: Dec): string => d.toFixed(0);
const commission = (premium: string, companyRate?: string, payoutRate?: string) => {
  const r = calcCommission({ premium, companyRate, payoutRate });
  return [m(r.companyAmount), m(r.agentAmount), m(r.tax)];
};
const paymentTax = (amount: string, taxType: string, vatType: string, deduction?: string) => {
  const r = calcPaymentTax({ amount, taxType, vatType, deduction });
  return [w(r.incomeTax), w(r.localTax), m(r.vat), m(r.net)];
};
const aggregate = (recruit: string, maintain: string, override: string, plus: string, minus: string, cb: string, rate?: string) => {
  const r = calcSettlementAggregate(
    { recruit, maintain, override, exceptionPlus: plus, exceptionMinus: minus, chargeback: cb },
    rate,
  );
  return [m(r.gross), m(r.tax), m(r.net)];
};

// ---------------------------------------------------------------- rounding (rule 1)
const rounding: Vector[] = [
  // 100.50 x 10 / 100 = 10.05 exactly
  { name: 'pct of an exact amount', actual: () => m(pct('100.50', '10')), expected: '10.05' },
  // 0.50 x 1 / 100 = 0.005 => 0.01 (half goes up)
  { name: 'pct .005 rounds up', actual: () => m(pct('0.50', '1')), expected: '0.01' },
  // 0.50 x 3 / 100 = 0.015 => 0.02 (HALF_UP, not banker's 0.02/0.01)
  { name: 'pct .015 rounds up', actual: () => m(pct('0.50', '3')), expected: '0.02' },
  // 1.00 x 0.5 / 100 = 0.005 => 0.01
  { name: 'pct with a fractional rate at .005', actual: () => m(pct('1.00', '0.5')), expected: '0.01' },
  // 10.00 x 0.0449 / 100 = 0.00449 => 0.00 (below half)
  { name: 'pct just below half rounds down', actual: () => m(pct('10.00', '0.0449')), expected: '0.00' },
  // 10.10 x 0.05 / 100 = 0.00505 => 0.01 (above half)
  { name: 'pct just above half rounds up', actual: () => m(pct('10.10', '0.05')), expected: '0.01' },
  // -0.50 x 1 / 100 = -0.005 => -0.01 (half away from zero)
  { name: 'pct of a negative .005 rounds away from zero', actual: () => m(pct('-0.50', '1')), expected: '-0.01' },
  // -100.00 x 3.3 / 100 = -3.30
  { name: 'pct of a negative amount', actual: () => m(pct('-100.00', '3.3')), expected: '-3.30' },
  // 12345.67 x 12.3456 = 152414.703552; / 100 = 1524.14703552 => 1524.15
  { name: 'pct with a four-place rate', actual: () => m(pct('12345.67', '12.3456')), expected: '1524.15' },
  // 9999999999999.99 x 999.9999 / 100 = 99999989999999.90000001 (22 digits: needs precision > 20) => .90
  { name: 'pct at the numeric(15,2) x numeric(7,4) maximum', actual: () => m(pct('9999999999999.99', '999.9999')), expected: '99999989999999.90' },
  // 0 x 50 / 100 = 0
  { name: 'pct of zero', actual: () => m(pct('0', '50')), expected: '0.00' },
  // 100 x 0 / 100 = 0
  { name: 'pct at a zero rate', actual: () => m(pct('100', '0')), expected: '0.00' },
  // 150 x 1 / 100 = 1.5 => 2 (scale 0, half up)
  { name: 'pct0 .5 rounds up', actual: () => w(pct0('150', '1')), expected: '2' },
  // 250 x 1 / 100 = 2.5 => 3 (banker's rounding would give 2)
  { name: 'pct0 2.5 rounds to 3', actual: () => w(pct0('250', '1')), expected: '3' },
  // -150 x 1 / 100 = -1.5 => -2
  { name: 'pct0 of a negative .5 rounds away from zero', actual: () => w(pct0('-150', '1')), expected: '-2' },
  // 149.99 x 1 / 100 = 1.4999 => 1
  { name: 'pct0 below half rounds down', actual: () => w(pct0('149.99', '1')), expected: '1' },
  // 2.675 => 2.68 (a float64 2.675 is 2.67499999... and would give 2.67)
  { name: 'round2 of 2.675', actual: () => m(round2('2.675')), expected: '2.68' },
  // 1.005 => 1.01 (float64 trap again)
  { name: 'round2 of 1.005', actual: () => m(round2('1.005')), expected: '1.01' },
  // -0.5 => -1
  { name: 'round0 of -0.5', actual: () => w(round0('-0.5')), expected: '-1' },
  // -0.004 => -0.00, shown as 0.00; 1234.5 shown as 1234.50
  { name: 'formatMoney never shows -0.00 and pads', actual: () => [formatMoney('-0.004'), formatMoney('1234.5')], expected: ['0.00', '1234.50'] },
];

// ---------------------------------------------------------------- recruit / maintain (rules 2, 3)
const commissions: Vector[] = [
  // company 100000 x 50% = 50000.00; agent 50000 x 60% = 30000.00; tax 30000 x 3.3% = 990.00
  { name: 'recruit with round figures', actual: () => commission('100000', '50', '60'), expected: ['50000.00', '30000.00', '990.00'] },
  // company 123456.78 x 35.5% = 43827.1569 => 43827.16; agent 43827.16 x 72.5% = 31774.691 => 31774.69;
  // tax 31774.69 x 3.3% = 1048.56477 => 1048.56
  { name: 'recruit with rounding at every step', actual: () => commission('123456.78', '35.5', '72.5'), expected: ['43827.16', '31774.69', '1048.56'] },
  // company rate missing = 0: company 0; agent 0 x 60% = 0; tax 0
  { name: 'missing company rate counts as 0', actual: () => commission('100000', undefined, '60'), expected: ['0.00', '0.00', '0.00'] },
  // company 100000 x 50% = 50000.00; payout missing = 0 -> agent 0; tax 0
  { name: 'missing payout rate counts as 0', actual: () => commission('100000', '50'), expected: ['50000.00', '0.00', '0.00'] },
  // explicit zero rates: everything 0
  { name: 'zero rates give zero', actual: () => commission('100000', '0', '0'), expected: ['0.00', '0.00', '0.00'] },
  // company 1.00 x 0.5% = 0.005 => 0.01; agent 0.01 x 100% = 0.01; tax 0.01 x 3.3% = 0.00033 => 0.00
  { name: 'company amount .005 rounds up', actual: () => commission('1.00', '0.5', '100'), expected: ['0.01', '0.01', '0.00'] },
  // company 100.00 x 1.5% = 1.50; agent 1.50 x 100% = 1.50; tax 1.50 x 3.3% = 0.0495 => 0.05
  { name: 'tax rounds half up at the cent', actual: () => commission('100.00', '1.5', '100'), expected: ['1.50', '1.50', '0.05'] },
  // company 10.00 x 50% = 5.00; agent 5.00 x 30.1% = 1.505 => 1.51; tax 1.51 x 3.3% = 0.04983 => 0.05
  { name: 'agent amount .005 rounds up', actual: () => commission('10.00', '50', '30.1'), expected: ['5.00', '1.51', '0.05'] },
  // company 50000 x 1200% = 600000.00; agent x 40% = 240000.00; tax x 3.3% = 7920.00
  { name: 'company rate above 100 %', actual: () => commission('50000', '1200', '40'), expected: ['600000.00', '240000.00', '7920.00'] },
  // maintain year 3 uses the same formula: 87650.00 x 7.25% = 6354.625 => 6354.63; x 55% = 3495.0465 => 3495.05;
  // x 3.3% = 115.33665 => 115.34
  { name: 'maintain with year rates', actual: () => commission('87650.00', '7.25', '55'), expected: ['6354.63', '3495.05', '115.34'] },
];

// ---------------------------------------------------------------- settlement aggregate (rule 4)
const aggregates: Vector[] = [
  // gross 1000 + 500 + 200 + 100 - 300 - 50 = 1450.00; tax 1450 x 3.3% = 47.85; net 1402.15
  { name: 'aggregate with every component', actual: () => aggregate('1000', '500', '200', '100', '50', '300'), expected: ['1450.00', '47.85', '1402.15'] },
  // all sums 0: gross 0, tax 0, net 0 (every active agent still gets a row)
  { name: 'aggregate of nothing', actual: () => aggregate('0', '0', '0', '0', '0', '0'), expected: ['0.00', '0.00', '0.00'] },
  // gross 0 - 1000 = -1000.00; tax -1000 x 3.3% = -33.00; net -1000 + 33 = -967.00
  { name: 'negative gross gives negative tax', actual: () => aggregate('0', '0', '0', '0', '0', '1000'), expected: ['-1000.00', '-33.00', '-967.00'] },
  // gross 15.15; tax 15.15 x 3.3% = 0.49995 => 0.50; net 14.65
  { name: 'aggregate tax .005 rounds up', actual: () => aggregate('15.15', '0', '0', '0', '0', '0'), expected: ['15.15', '0.50', '14.65'] },
  // gross -1.50; tax -0.0495 => -0.05; net -1.50 + 0.05 = -1.45
  { name: 'negative aggregate tax rounds away from zero', actual: () => aggregate('0', '0', '0', '0', '0', '1.50'), expected: ['-1.50', '-0.05', '-1.45'] },
  // TAX_RATE 5: gross 100.10; tax 5.005 => 5.01; net 95.09
  { name: 'aggregate with a configured tax rate', actual: () => aggregate('100.10', '0', '0', '0', '0', '0', '5'), expected: ['100.10', '5.01', '95.09'] },
];

// ---------------------------------------------------------------- payment tax (rule 5) and deductions (rule 6)
const payments: Vector[] = [
  // income 1000000 x 3.3% = 33000; local 33000 x 10% = 3300; vat 0; net 1000000 - 33000 - 3300 = 963700
  { name: 'business income, no VAT', actual: () => paymentTax('1000000', 'BUSINESS_INCOME', 'NONE'), expected: ['33000', '3300', '0.00', '963700.00'] },
  // income 1000000 x 8.8% = 88000; local 8800; net 903200
  { name: 'other income, no VAT', actual: () => paymentTax('1000000', 'OTHER_INCOME', 'NONE'), expected: ['88000', '8800', '0.00', '903200.00'] },
  // TAXABLE: vat 1000000 x 10% = 100000; net 1000000 - 33000 - 3300 + 100000 = 1063700
  { name: 'business income, VAT taxable', actual: () => paymentTax('1000000', 'BUSINESS_INCOME', 'TAXABLE'), expected: ['33000', '3300', '100000.00', '1063700.00'] },
  // EXEMPT: vat 0; net as NONE = 963700
  { name: 'business income, VAT exempt', actual: () => paymentTax('1000000', 'BUSINESS_INCOME', 'EXEMPT'), expected: ['33000', '3300', '0.00', '963700.00'] },
  // OTHER + TAXABLE 2500000: income 220000; local 22000; vat 250000; net 2500000 - 242000 + 250000 = 2508000
  { name: 'other income, VAT taxable', actual: () => paymentTax('2500000', 'OTHER_INCOME', 'TAXABLE'), expected: ['220000', '22000', '250000.00', '2508000.00'] },
  // OTHER + EXEMPT 2500000: vat 0; net 2500000 - 220000 - 22000 = 2258000
  { name: 'other income, VAT exempt', actual: () => paymentTax('2500000', 'OTHER_INCOME', 'EXEMPT'), expected: ['220000', '22000', '0.00', '2258000.00'] },
  // income 12345.67 x 3.3% = 407.40711 => 407; local 40.7 => 41; net 12345.67 - 407 - 41 = 11897.67
  { name: 'income tax rounds to whole won', actual: () => paymentTax('12345.67', 'BUSINESS_INCOME', 'NONE'), expected: ['407', '41', '0.00', '11897.67'] },
  // income 1500 x 3.3% = 49.5 => 50 (scale 0 half up); local 5.0 => 5; net 1445
  { name: 'income tax .5 rounds up', actual: () => paymentTax('1500', 'BUSINESS_INCOME', 'NONE'), expected: ['50', '5', '0.00', '1445.00'] },
  // income 1363.64 x 3.3% = 45.00012 => 45; local 45 x 10% = 4.5 => 5; net 1363.64 - 50 = 1313.64
  { name: 'local tax .5 rounds up', actual: () => paymentTax('1363.64', 'BUSINESS_INCOME', 'NONE'), expected: ['45', '5', '0.00', '1313.64'] },
  // income 12345 x 3.3% = 407.385 => 407; local 40.7 => 41; vat 1234.5 at scale 2 (rule 1, DECISIONS
  // "Payments and tax") = 1234.50; net 12345 - 448 + 1234.50 = 13131.50
  { name: 'VAT is rule 1 at scale 2, not whole won', actual: () => paymentTax('12345', 'BUSINESS_INCOME', 'TAXABLE'), expected: ['407', '41', '1234.50', '13131.50'] },
  // vat 123456.78 x 10% = 12345.678 => 12345.68 (whole won would be 12346)
  { name: 'VAT rounds HALF_UP to cents', actual: () => paymentTax('123456.78', 'OTHER_INCOME', 'TAXABLE'), expected: ['10864', '1086', '12345.68', '123852.46'] },
  // net 963700 - deduction 50000 = 913700 (overall: amount - income - local + vat - deduction)
  { name: 'payment net after a deduction', actual: () => paymentTax('1000000', 'BUSINESS_INCOME', 'NONE', '50000'), expected: ['33000', '3300', '0.00', '913700.00'] },
  // amount 0: all 0
  { name: 'payment of zero', actual: () => paymentTax('0', 'OTHER_INCOME', 'TAXABLE'), expected: ['0', '0', '0.00', '0.00'] },
  // PENDING 30000 + 20000.50 = 50000.50 applied; APPLIED and CANCELLED ignored; net 963700 - 50000.50 = 913699.50
  {
    name: 'deductions apply only PENDING rows',
    actual: () => {
      const r = applyDeductions('963700', [
        { deductionId: 1, amount: '30000', status: 'PENDING' },
        { deductionId: 2, amount: '20000.50', status: 'PENDING' },
        { deductionId: 3, amount: '10000', status: 'APPLIED' },
        { deductionId: 4, amount: '5', status: 'CANCELLED' },
      ]);
      return [r.applied.map((a) => a.deductionId), m(r.deductionSum), m(r.net)];
    },
    expected: [[1, 2], '50000.50', '913699.50'],
  },
  // nothing pending: sum 0, net unchanged
  { name: 'no pending deductions leave the net', actual: () => m(applyDeductions('100.00', []).net), expected: '100.00' },
];

// ---------------------------------------------------------------- differential chargeback (rule 7)
const OPEN = { effectiveFrom: '2000-01-01', effectiveTo: null };
const seededBands: ChargebackGradeRow[] = [
  { ...OPEN, gradeId: 1, productCategory: null, monthsFrom: 1, monthsTo: 12, percent: '100' },
  { ...OPEN, gradeId: 2, productCategory: null, monthsFrom: 13, monthsTo: 24, percent: '50' },
  { ...OPEN, gradeId: 3, productCategory: null, monthsFrom: 25, monthsTo: 36, percent: '25' },
  { ...OPEN, gradeId: 4, productCategory: null, monthsFrom: 37, monthsTo: 84, percent: '10' },
  { ...OPEN, gradeId: 5, productCategory: null, monthsFrom: 85, monthsTo: null, percent: '0' },
];
const lifeBand: ChargebackGradeRow = { ...OPEN, gradeId: 6, productCategory: 'LIFE', monthsFrom: 13, monthsTo: 24, percent: '70' };
const revisedBand: ChargebackGradeRow = {
  effectiveFrom: '2024-01-01',
  effectiveTo: null,
  gradeId: 7,
  productCategory: null,
  monthsFrom: 13,
  monthsTo: 24,
  percent: '40',
};
const band = (terminationDate: string, grades = seededBands, productCategory: string | null = null, baseDate?: string) => {
  const r = calcDifferentialChargeback({
    grades,
    productCategory,
    contractDate: '2020-01-15',
    terminationDate,
    baseDate,
    originalCommission: '123457',
  });
  return [r.monthsElapsed, r.grade?.gradeId ?? null, w(r.chargebackAmount), r.reason ?? null];
};
const NO_BAND = 'no applicable chargeback band';
const chargebackBands: Vector[] = [
  // 2020-01-15 -> 2020-01-20: 0 whole months; no band covers 0 -> amount 0 with the reason
  { name: 'band edge 0 months: no band', actual: () => band('2020-01-20'), expected: [0, null, '0', NO_BAND] },
  // 2020-01-15 -> 2020-02-15: 1 month -> 1-12 = 100%; 123457 x 100% = 123457
  { name: 'band edge 1 month', actual: () => band('2020-02-15'), expected: [1, 1, '123457', null] },
  // -> 2021-01-14: 11 months (one day short of 12) -> 100%
  { name: 'one day before 12 months is still 11', actual: () => band('2021-01-14'), expected: [11, 1, '123457', null] },
  // -> 2021-01-15: 12 months -> 1-12 = 100% -> 123457
  { name: 'band edge 12 months', actual: () => band('2021-01-15'), expected: [12, 1, '123457', null] },
  // -> 2021-02-15: 13 months -> 13-24 = 50%; 123457 x 50% = 61728.5 => 61729
  { name: 'band edge 13 months', actual: () => band('2021-02-15'), expected: [13, 2, '61729', null] },
  // -> 2022-01-15: 24 months -> 50% -> 61729
  { name: 'band edge 24 months', actual: () => band('2022-01-15'), expected: [24, 2, '61729', null] },
  // -> 2022-02-15: 25 months -> 25-36 = 25%; 123457 x 25% = 30864.25 => 30864
  { name: 'band edge 25 months', actual: () => band('2022-02-15'), expected: [25, 3, '30864', null] },
  // -> 2023-01-15: 36 months -> 25% -> 30864
  { name: 'band edge 36 months', actual: () => band('2023-01-15'), expected: [36, 3, '30864', null] },
  // -> 2023-02-15: 37 months -> 37-84 = 10%; 123457 x 10% = 12345.7 => 12346
  { name: 'band edge 37 months', actual: () => band('2023-02-15'), expected: [37, 4, '12346', null] },
  // -> 2027-01-15: 84 months -> 10% -> 12346
  { name: 'band edge 84 months', actual: () => band('2027-01-15'), expected: [84, 4, '12346', null] },
  // -> 2027-02-15: 85 months -> 85+ = 0% -> 0 (a band applies, so no reason)
  { name: 'band edge 85 months', actual: () => band('2027-02-15'), expected: [85, 5, '0', null] },
  // -> 2036-09-15: 16 years 8 months = 200 months -> open band 0% -> 0
  { name: 'band edge 200 months', actual: () => band('2036-09-15'), expected: [200, 5, '0', null] },
  // LIFE contract at 13 months: the LIFE band (70%) beats the NULL band; 123457 x 70% = 86419.9 => 86420
  { name: 'a category band beats the NULL-category band', actual: () => band('2021-02-15', [...seededBands, lifeBand], 'LIFE'), expected: [13, 6, '86420', null] },
  // ANNUITY contract at 13 months: only the NULL band applies -> 50% -> 61729
  { name: 'the NULL-category band applies to other categories', actual: () => band('2021-02-15', [...seededBands, lifeBand], 'ANNUITY'), expected: [13, 2, '61729', null] },
  // two versions of 13-24 overlap from 2024-01-01: newest effective_from (40%) wins; 123457 x 40% = 49382.8 => 49383
  { name: 'overlapping band versions: the newer wins', actual: () => band('2021-02-15', [...seededBands, revisedBand], null, '2024-06-01'), expected: [13, 7, '49383', null] },
  // base date 2023-12-31: the revision is not valid yet -> old 50% -> 61729
  { name: 'overlapping band versions: before the revision the older applies', actual: () => band('2021-02-15', [...seededBands, revisedBand], null, '2023-12-31'), expected: [13, 2, '61729', null] },
  // closed semantics: a band ending 2023-12-31 is still valid on 2023-12-31
  {
    name: 'a band is valid on its effective_to date (closed lookup)',
    actual: () => lookupChargebackGrade([{ ...seededBands[1]!, effectiveTo: '2023-12-31' }], 13, '2023-12-31')?.gradeId,
    expected: 2,
  },
];

// ---------------------------------------------------------------- chargeback by rule (step 6) and installments
const cbRule: ChargebackRuleRow = {
  cbRuleId: 1,
  companyCode: 'C01',
  insuranceType: 'LIFE',
  lapseMonthFrom: 0,
  lapseMonthTo: 12,
  cbRate: '100',
  includeOverride: true,
  installmentAllowed: true,
  maxInstallments: 3,
  effectiveFrom: '2020-01-01',
  effectiveTo: null,
};
const cbRule2: ChargebackRuleRow = { ...cbRule, cbRuleId: 2, lapseMonthFrom: 13, lapseMonthTo: null, cbRate: '50', includeOverride: false, installmentAllowed: false };
const chargeback = (lapseDate: string, base: string, overrideBase?: string) => {
  const r = calcChargeback({
    rules: [cbRule, cbRule2],
    companyCode: 'C01',
    insuranceType: 'LIFE',
    contractDate: '2024-01-10',
    lapseDate,
    settleMonth: lapseDate.slice(0, 4) + lapseDate.slice(5, 7),
    base,
    overrideBase,
  });
  return [r.lapseMonths, r.rule?.cbRuleId ?? null, m(r.cbAmount), r.installments.map((i) => `${i.installmentSeq}/${i.installmentTotal} ${i.settleMonth} ${m(i.amount)}`)];
};
const chargebacks: Vector[] = [
  // lapse 2024-06-10: 5 months -> rule 1 (0-12, 100%, with override): base 100.00 + 0 = 100.00; split in 3:
  // 100.00 / 3 = 33.333.. -> 33.33, 33.33, last 100.00 - 66.66 = 33.34; months 202406, 202407, 202408
  { name: 'chargeback in 3 installments, last absorbs the remainder', actual: () => chargeback('2024-06-10', '100.00'), expected: [5, 1, '100.00', ['1/3 202406 33.33', '2/3 202407 33.33', '3/3 202408 33.34']] },
  // include_override: base 1000.00 + override 200.01 = 1200.01 x 100% = 1200.01; / 3 = 400.0033 -> 400.00, 400.00, 400.01
  { name: 'chargeback base includes the override when the rule says so', actual: () => chargeback('2024-06-10', '1000.00', '200.01'), expected: [5, 1, '1200.01', ['1/3 202406 400.00', '2/3 202407 400.00', '3/3 202408 400.01']] },
  // lapse 2025-12-10: 23 months -> rule 2 (13+, 50%, no override, no installments): 1234.57 x 50% = 617.285 => 617.29;
  // override 500 is ignored; one row 1/1
  { name: 'chargeback at 50 % without installments ignores the override', actual: () => chargeback('2025-12-10', '1234.57', '500'), expected: [23, 2, '617.29', ['1/1 202512 617.29']] },
];

// ---------------------------------------------------------------- rule lookups (2.4)
const rateV1: CommissionRateRow = { rateId: 1, productId: 7, commissionYear: 1, ratePct: '30', effectiveFrom: '2023-01-01', effectiveTo: '2024-01-01', version: 1 };
const rateV2: CommissionRateRow = { rateId: 2, productId: 7, commissionYear: 1, ratePct: '35', effectiveFrom: '2023-07-01', effectiveTo: null, version: 2 };
const rateOf = (date: string) => lookupCommissionRate([rateV1, rateV2], { productId: 7, commissionYear: 1, date })?.rateId ?? null;
const lookups: Vector[] = [
  // 2023-03-01: only v1 (from 2023-01-01) is in force -> 30 %
  { name: 'half-open lookup before the second version', actual: () => rateOf('2023-03-01'), expected: 1 },
  // 2023-08-01: v1 and v2 overlap -> highest version v2 -> 35 %
  { name: 'overlapping versions: highest version wins', actual: () => rateOf('2023-08-01'), expected: 2 },
  // 2024-01-01: v1 ends (exclusive) on 2024-01-01 -> v2
  { name: 'half-open lookup excludes effective_to', actual: () => rateOf('2024-01-01'), expected: 2 },
  // 2022-12-31: nothing in force -> missing -> recruit counts the rate as 0
  { name: 'no rate before any version', actual: () => rateOf('2022-12-31'), expected: null },
];

// ---------------------------------------------------------------- regulatory limit (rule 8)
const totalLimit = { limitType: 'TOTAL_RATIO', limitValue: '1200', unit: 'PERCENT' };
const firstYearLimit = { limitType: 'FIRST_YEAR_RATIO', limitValue: '35', unit: 'PERCENT' };
const limit = (l: typeof totalLimit, premium: string, accumulated: string, additional: string) => {
  const r = checkRegulatoryLimit({ limit: l, premium, accumulated, additional });
  return [m(r.limitAmount), m(r.remaining), r.violated];
};
const limitRows: RegulatoryLimitRow[] = [
  { limitId: 1, limitType: 'FIRST_YEAR_RATIO', productCategory: 'ALL', limitValue: '35', unit: 'PERCENT', effectiveFrom: '2020-01-01', effectiveTo: null, isActive: true },
  { limitId: 2, limitType: 'FIRST_YEAR_RATIO', productCategory: 'LIFE', limitValue: '30', unit: 'PERCENT', effectiveFrom: '2020-01-01', effectiveTo: null, isActive: true },
];
const limits: Vector[] = [
  // limit 1000000 x 1200% = 12000000.00; 11000000 + 1000000 = 12000000 -> remaining 0, reaching the limit is ok
  { name: 'total ratio reached exactly is not violated', actual: () => limit(totalLimit, '1000000', '11000000', '1000000'), expected: ['12000000.00', '0.00', false] },
  // + 0.01 more -> remaining -0.01 -> violated
  { name: 'total ratio exceeded by a cent is violated', actual: () => limit(totalLimit, '1000000', '11000000', '1000000.01'), expected: ['12000000.00', '-0.01', true] },
  // first year: 123456.78 x 35% = 43209.873 => 43209.87; 40000 + 3000 = 43000 -> remaining 209.87
  { name: 'first-year ratio with room left', actual: () => limit(firstYearLimit, '123456.78', '40000', '3000'), expected: ['43209.87', '209.87', false] },
  // INSTALLMENT_YEARS 7: 7 years ok, 8 violated
  {
    name: 'installment years: 7 allowed, 8 violated',
    actual: () => [7, 8].map((y) => checkInstallmentYears({ limitType: 'INSTALLMENT_YEARS', limitValue: '7', unit: 'YEAR' }, y).violated),
    expected: [false, true],
  },
  // LIFE product: the LIFE row (30) beats the ALL row (35); SAVINGS: only ALL applies
  {
    name: 'limit lookup prefers the product category over ALL',
    actual: () => ['LIFE', 'SAVINGS'].map((c) => lookupRegulatoryLimit(limitRows, { limitType: 'FIRST_YEAR_RATIO', productCategory: c, date: '2024-05-01' })?.limitId),
    expected: [2, 1],
  },
];

// ---------------------------------------------------------------- installment plan (rule 9)
const SEEDED: InstallmentRatio[] = [35, 25, 15, 10, 7, 5, 3].map((r, i) => ({ planYear: i + 1, planMonth: null, ratioPercent: String(r) }));
const plan = (ratios: InstallmentRatio[], total: string, firstSettleMonth = '202403') =>
  generateInstallmentPlan({ ratios, firstSettleMonth, total }).map((r) => `${r.sequence} ${r.settleMonth} ${m(r.amount)}`);
const MONTHLY: InstallmentRatio[] = [
  ...Array.from({ length: 12 }, (_, i) => ({ planYear: 1, planMonth: i + 1, ratioPercent: '2.5' })),
  ...[25, 15, 10, 10, 5, 5].map((r, i) => ({ planYear: i + 2, planMonth: null, ratioPercent: String(r) })),
];
const installments: Vector[] = [
  // 1000000 x 35/25/15/10/7/5/3 % = 350000/250000/150000/100000/70000/50000/30000; sequence (y-1) x 12 + 1;
  // settle month = 202403 + (sequence - 1) months
  {
    name: 'seeded yearly plan',
    actual: () => plan(SEEDED, '1000000'),
    expected: ['1 202403 350000.00', '13 202503 250000.00', '25 202603 150000.00', '37 202703 100000.00', '49 202803 70000.00', '61 202903 50000.00', '73 203003 30000.00'],
  },
  // 1000.01: 350.0035 => 350.00, 250.0025 => 250.00, 150.0015 => 150.00, 100.001 => 100.00, 70.0007 => 70.00,
  // 50.0005 => 50.00; last = 1000.01 - 970.00 = 30.01 (its own 3 % would be 30.00)
  {
    name: 'the last yearly row absorbs the rounding remainder',
    actual: () => plan(SEEDED, '1000.01').map((r) => r.split(' ')[2]),
    expected: ['350.00', '250.00', '150.00', '100.00', '70.00', '50.00', '30.01'],
  },
  // monthly year 1 (12 x 2.5 %) from 202411: 999.99 x 2.5% = 24.99975 => 25.00 each, months 202411..202510;
  // year 2 25% = 249.9975 => 250.00 (seq 13, 202511); 15% = 149.9985 => 150.00; 10% = 99.999 => 100.00 (x2);
  // 5% = 49.9995 => 50.00; last 999.99 - (300 + 250 + 150 + 100 + 100 + 50) = 49.99
  {
    name: 'plan with monthly ratios in year 1',
    actual: () => plan(MONTHLY, '999.99', '202411'),
    expected: [
      '1 202411 25.00', '2 202412 25.00', '3 202501 25.00', '4 202502 25.00', '5 202503 25.00', '6 202504 25.00',
      '7 202505 25.00', '8 202506 25.00', '9 202507 25.00', '10 202508 25.00', '11 202509 25.00', '12 202510 25.00',
      '13 202511 250.00', '25 202611 150.00', '37 202711 100.00', '49 202811 100.00', '61 202911 50.00', '73 203011 49.99',
    ],
  },
];

// ---------------------------------------------------------------- succession (rule 10)
const successions: SuccessionRow[] = [
  { successionId: 1, contractId: 10, fromAgentId: 100, toAgentId: 200, effectiveMonth: '202405', status: 'ACTIVE' },
  { successionId: 2, contractId: 10, fromAgentId: 200, toAgentId: 300, effectiveMonth: '202406', status: 'ACTIVE' },
  { successionId: 3, contractId: 10, fromAgentId: 300, toAgentId: 400, effectiveMonth: '202407', status: 'CANCELLED' },
  { successionId: 4, contractId: 11, fromAgentId: 100, toAgentId: 500, effectiveMonth: '202408', status: 'ACTIVE' },
  { successionId: 5, contractId: 11, fromAgentId: 100, toAgentId: 600, effectiveMonth: '202408', status: 'ACTIVE' },
];
const successor = (contractId: number, month: string) => resolveSuccession(successions, contractId, month)?.toAgentId ?? null;
const successionVectors: Vector[] = [
  // 202404: succession 1 starts 202405 -> none yet
  { name: 'succession effective next month is not used yet', actual: () => successor(10, '202404'), expected: null },
  // 202405: succession 1 effective in this month -> agent 200
  { name: 'succession effective in the month is used', actual: () => successor(10, '202405'), expected: 200 },
  // 202406: successions 1 and 2 effective -> latest month 202406 -> agent 300
  { name: 'the latest effective succession wins', actual: () => successor(10, '202406'), expected: 300 },
  // 202407: succession 3 is cancelled -> still 2 -> agent 300
  { name: 'a cancelled succession is ignored', actual: () => successor(10, '202407'), expected: 300 },
  // contract 11: two in 202408 -> greatest id 5 -> agent 600
  { name: 'same month: greatest succession id wins', actual: () => successor(11, '202408'), expected: 600 },
];

// ---------------------------------------------------------------- override (step 7)
// Org 1 (HQ) <- 2 (BR) <- 3 (TM), 4 (TM). Grades: 1 FC, 2 team manager, 3 branch manager.
const overrideIndex = buildOverrideIndex<OverrideRuleRow>({
  orgs: [
    { orgId: 1, parentOrgId: null },
    { orgId: 2, parentOrgId: 1 },
    { orgId: 3, parentOrgId: 2 },
    { orgId: 4, parentOrgId: 2 },
  ],
  agents: [
    { agentId: 101, orgId: 3, gradeId: 1, status: 'ACTIVE' },
    { agentId: 102, orgId: 4, gradeId: 1, status: 'ACTIVE' },
    { agentId: 201, orgId: 3, gradeId: 2, status: 'ACTIVE' },
    { agentId: 202, orgId: 4, gradeId: 2, status: 'LEAVE' },
    { agentId: 203, orgId: 2, gradeId: 2, status: 'ACTIVE' },
    { agentId: 302, orgId: 2, gradeId: 3, status: 'ACTIVE' },
    { agentId: 301, orgId: 2, gradeId: 3, status: 'ACTIVE' },
  ],
  rules: [
    { overrideId: 1, fromGrade: 1, toGrade: 2, overridePct: '10', capAmount: null, effectiveFrom: '2020-01-01', effectiveTo: null },
    { overrideId: 2, fromGrade: 1, toGrade: 3, overridePct: '5', capAmount: '3000', effectiveFrom: '2020-01-01', effectiveTo: null },
    { overrideId: 3, fromGrade: 2, toGrade: 2, overridePct: '1', capAmount: null, effectiveFrom: '2020-01-01', effectiveTo: null },
  ],
});
const override = (agentId: number, base: string) =>
  calcOverrides(overrideIndex, { agentId, base, date: '2024-05-31' }).rows.map(
    (r) => `${r.basis.overrideId}: ${r.fromAgentId}->${r.toAgentId} ${m(r.overrideAmount)}${r.capped ? ' capped' : ''} via ${r.basis.orgsWalked.join('>')}`,
  );
const overrides: Vector[] = [
  // agent 101 (org 3), base 100000: rule 1 -> grade 2 in org 3 = 201, 100000 x 10% = 10000.00;
  // rule 2 -> no grade 3 in org 3, walk to org 2: 301 and 302 -> lowest 301; 100000 x 5% = 5000 capped at 3000.00
  { name: 'override to the own team and a capped override to the branch', actual: () => override(101, '100000'), expected: ['1: 101->201 10000.00 via 3', '2: 101->301 3000.00 capped via 3>2'] },
  // agent 102 (org 4), base 12345.67: org 4's team manager 202 is on LEAVE -> skip org 4, org 2 has 203:
  // 12345.67 x 10% = 1234.567 => 1234.57; rule 2: 12345.67 x 5% = 617.2835 => 617.28 (under the cap)
  { name: 'override walk skips an organization without an active receiver', actual: () => override(102, '12345.67'), expected: ['1: 102->203 1234.57 via 4>2', '2: 102->301 617.28 via 4>2'] },
  // agent 201 (grade 2), rule 3 (2 -> 2): org 3's only team manager is 201 itself -> walk to org 2 -> 203;
  // 50000 x 1% = 500.00
  { name: 'an agent never receives its own override', actual: () => override(201, '50000'), expected: ['3: 201->203 500.00 via 3>2'] },
];

// ---------------------------------------------------------------- calendar
const calendar: Vector[] = [
  // whole months: 2024-01-15 -> 2025-01-14 is 11 (the 12th anniversary is the 15th)
  { name: 'months elapsed one day short of a year', actual: () => monthsElapsed('2024-01-15', '2025-01-14'), expected: 11 },
  // 2024-01-15 -> 2025-01-15 is 12
  { name: 'months elapsed on the anniversary', actual: () => monthsElapsed('2024-01-15', '2025-01-15'), expected: 12 },
  // 2024-01-31 + 1 month clamps to 2024-02-29 <= 2024-02-29 -> 1
  { name: 'months elapsed from a month end to a leap month end', actual: () => monthsElapsed('2024-01-31', '2024-02-29'), expected: 1 },
  // 2024-01-31 + 1 month = 2024-02-29 > 2024-02-28 -> 0
  { name: 'months elapsed short of the clamped month end', actual: () => monthsElapsed('2024-01-31', '2024-02-28'), expected: 0 },
  // contract 2023-05-10, settle 202405: 2023-05-10 -> 2024-05-31 = 12 months -> floor(12/12) + 1 = 2
  { name: 'commission year 2 in the anniversary month', actual: () => commissionYearInMonth('2023-05-10', '202405'), expected: 2 },
  // settle 202404: -> 2024-04-30 = 11 months -> floor(11/12) + 1 = 1
  { name: 'commission year 1 the month before', actual: () => commissionYearInMonth('2023-05-10', '202404'), expected: 1 },
  // 202402 -> 2024-02-29 (leap); 190002 -> 1900-02-28 (not leap); 200002 -> 2000-02-29 (leap)
  { name: 'last day of February', actual: () => ['202402', '190002', '200002'].map(lastDayOfMonth), expected: ['2024-02-29', '1900-02-28', '2000-02-29'] },
  // 202405 -> Q2; 2024-Q4 ends in 202412
  { name: 'quarter and its last month', actual: () => [quarterOfSettleMonth('202405'), lastMonthOfQuarter('2024-Q4')], expected: ['2024-Q2', '202412'] },
];

// ---------------------------------------------------------------- masking (5.6)
const masking: Vector[] = [
  // 3 characters: first + * + last
  { name: 'mask a three-character name', actual: () => maskName('홍길동'), expected: '홍*동' },
  // 2 characters: first + *
  { name: 'mask a two-character name', actual: () => maskName('이순'), expected: '이*' },
  // 4 characters: first + ** + last
  { name: 'mask a four-character name', actual: () => maskName('남궁민수'), expected: '남**수' },
  // 11 digits: 3 + **** + 4
  { name: 'mask an 11-digit mobile number', actual: () => maskPhone('010-1234-5678'), expected: '010-****-5678' },
  // 10 digits starting 02: 2 + **** + 4
  { name: 'mask a 10-digit Seoul number', actual: () => maskPhone('02-1234-5678'), expected: '02-****-5678' },
  // 10 digits otherwise: 3 + *** + 4
  { name: 'mask a 10-digit area number', actual: () => maskPhone('0311234567'), expected: '031-***-4567' },
  // 9 digits: unchanged
  { name: 'a 9-digit phone number stays unchanged', actual: () => maskPhone('02-123-4567'), expected: '02-123-4567' },
  // first six digits + -*******
  { name: 'mask a resident number', actual: () => maskResidentNo('900101-1234567'), expected: '900101-*******' },
  // first group kept, dashes kept
  { name: 'mask a dashed account number', actual: () => maskAccountNo('110-123-456789'), expected: '110-***-******' },
  // no dash: first 3 kept
  { name: 'mask an account number without dashes', actual: () => maskAccountNo('1101234567'), expected: '110*******' },
  // first character + *** + @domain
  { name: 'mask an e-mail address', actual: () => maskEmail('hong@example.com'), expected: 'h***@example.com' },
];

const groups: Record<string, Vector[]> = {
  rounding,
  commissions,
  aggregates,
  payments,
  chargebackBands,
  chargebacks,
  lookups,
  limits,
  installments,
  successionVectors,
  overrides,
  calendar,
  masking,
};

describe('golden vectors', () => {
  it('has at least 80 hand-computed cases', () => {
    expect(Object.values(groups).flat().length).toBeGreaterThanOrEqual(80);
  });

  for (const [group, vectors] of Object.entries(groups)) {
    describe(group, () => {
      it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
        expect(v.actual()).toEqual(v.expected);
      });
    });
  }

  it('a negative premium is a DomainError on field premium', () => {
    expect(() => calcCommission({ premium: '-1.00', companyRate: '10' })).toThrow(
      expect.objectContaining({ name: 'DomainError', code: 'NEGATIVE_AMOUNT', field: 'premium' }),
    );
    expect(() => calcCommission({ premium: '-1.00' })).toThrow(DomainError);
  });
});
