import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commissionYearInMonth,
  firstDayOfMonth,
  isDateInSettleMonth,
  isValidSettleMonth,
  lastDayOfMonth,
  monthsElapsed,
  parseIsoDate,
  parseSettleMonth,
} from './calendar.js';
import { DomainError } from './errors.js';
import { isPremiumDue, maintainEligibility } from './maintain-eligibility.js';

/*
 * The char-code parsers, the month-end memo and the one-pass maintainEligibility against the
 * regex-based implementation they replaced, kept here verbatim as the reference.
 */
const RUNS = { numRuns: 2000 };

const REF_SETTLE_MONTH = /^(\d{4})(0[1-9]|1[0-2])$/;
const REF_ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function refPad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function refDaysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (month === 2) return leap ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function refParseSettleMonth(settleMonth: string, field = 'settleMonth') {
  const m = REF_SETTLE_MONTH.exec(settleMonth);
  if (!m || m[1] === '0000') {
    throw new DomainError('INVALID_SETTLE_MONTH', `settle month must be YYYYMM: ${settleMonth}`, field);
  }
  return { year: Number(m[1]), month: Number(m[2]) };
}

function refIsValidSettleMonth(settleMonth: string): boolean {
  const m = REF_SETTLE_MONTH.exec(settleMonth);
  return m !== null && m[1] !== '0000';
}

function refParseIsoDate(date: string, field = 'date') {
  const m = REF_ISO_DATE.exec(date);
  if (m) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= refDaysInMonth(year, month)) {
      return { year, month, day };
    }
  }
  throw new DomainError('INVALID_DATE', `date must be a real YYYY-MM-DD date: ${date}`, field);
}

function refFormatIsoDate({ year, month, day }: { year: number; month: number; day: number }): string {
  return `${String(year).padStart(4, '0')}-${refPad2(month)}-${refPad2(day)}`;
}

function refFirstDayOfMonth(settleMonth: string): string {
  return refFormatIsoDate({ ...refParseSettleMonth(settleMonth), day: 1 });
}

function refLastDayOfMonth(settleMonth: string): string {
  const ym = refParseSettleMonth(settleMonth);
  return refFormatIsoDate({ ...ym, day: refDaysInMonth(ym.year, ym.month) });
}

type Ymd = { year: number; month: number; day: number };

function refForwardMonths(a: Ymd, b: Ymd): number {
  const months = (b.year - a.year) * 12 + (b.month - a.month);
  return Math.min(a.day, refDaysInMonth(b.year, b.month)) > b.day ? months - 1 : months;
}

function refMonthsElapsed(from: string, to: string): number {
  const a = refParseIsoDate(from, 'from');
  const b = refParseIsoDate(to, 'to');
  if (to < from) return -refForwardMonths(b, a) || 0;
  return refForwardMonths(a, b);
}

function refCommissionYearInMonth(contractDate: string, settleMonth: string): number {
  const monthEnd = refLastDayOfMonth(settleMonth);
  const elapsed = refMonthsElapsed(contractDate, monthEnd);
  return contractDate > monthEnd ? 0 : Math.floor(elapsed / 12) + 1;
}

const REF_CYCLES: Record<string, number | null> = { MONTHLY: 1, QUARTERLY: 3, SEMI_ANNUAL: 6, ANNUAL: 12, SINGLE: null };

function refCycleMonths(payCycle: string): number | null {
  if (!Object.hasOwn(REF_CYCLES, payCycle)) {
    throw new DomainError('INVALID_PAY_CYCLE', `unknown pay cycle: ${payCycle}`, 'payCycle');
  }
  return REF_CYCLES[payCycle] as number | null;
}

function refIsPremiumDue(contractDate: string, payCycle: string, settleMonth: string): boolean {
  const cycle = refCycleMonths(payCycle);
  const months = refMonthsElapsed(contractDate, refLastDayOfMonth(settleMonth));
  if (months < 0) return false;
  return cycle === null ? months === 0 : months % cycle === 0;
}

function refMaintainEligibility(contract: { status: string; contractDate: string; payCycle: string }, settleMonth: string) {
  const commissionYear = refCommissionYearInMonth(contract.contractDate, settleMonth);
  const due = refIsPremiumDue(contract.contractDate, contract.payCycle, settleMonth);
  if (!['ACTIVE', 'REVIVE'].includes(contract.status)) return { eligible: false, commissionYear, reason: 'STATUS' };
  if (commissionYear < 2 || commissionYear > 5) return { eligible: false, commissionYear, reason: 'COMMISSION_YEAR' };
  if (!due) return { eligible: false, commissionYear, reason: 'NO_PREMIUM_DUE' };
  return { eligible: true, commissionYear };
}

/** A result or the error thrown, in a form toEqual compares completely. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (e) {
    const error = e as DomainError;
    return { error: { class: error.constructor.name, code: error.code, message: error.message, field: error.field } };
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Real dates of years 1..9999, month ends and Feb 29 weighted in. */
const realDate = fc
  .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.boolean())
  .map(([y, m, d, end]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(end ? refDaysInMonth(y, m) : Math.min(d, refDaysInMonth(y, m)), 2)}`);
/** Near misses: every field out of range, wrong separators, non-ASCII digits, other lengths. */
const dateLike = fc.oneof(
  realDate,
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  fc.string({ unit: fc.constantFrom('0', '1', '2', '9', '-', '/', ' ', 'a', '٢', '\n'), minLength: 8, maxLength: 12 }),
  fc.constantFrom('2024-02-29', '2023-02-29', '2100-02-29', '2000-02-29', '0000-01-01', '2024-1-01', '2024-01-01\n', ' 2024-01-01', '+024-01-01'),
  fc.string(),
);
const validMonth = fc
  .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }))
  .map(([y, m]) => `${pad(y, 4)}${pad(m, 2)}`);
const monthLike = fc.oneof(
  validMonth,
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 })).map(([y, m]) => `${pad(y, 4)}${pad(m, 2)}`),
  fc.string({ unit: fc.constantFrom('0', '1', '2', '9', '-', ' ', 'x', '٢', '\n'), minLength: 5, maxLength: 7 }),
  fc.string(),
);
const status = fc.constantFrom('ACTIVE', 'REVIVE', 'LAPSE', 'SURRENDER', '');
const payCycle = fc.constantFrom('MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SINGLE', 'WEEKLY', 'toString');
/** A settle month and a contract date up to 7 years before or 1 year after it (years 0..8). */
const contractInMonth = fc
  .tuple(fc.integer({ min: 1990 * 12, max: 2060 * 12 - 1 }), fc.integer({ min: -12, max: 84 }), fc.integer({ min: 1, max: 31 }))
  .map(([index, back, day]) => {
    const settleMonth = `${Math.floor(index / 12)}${pad((index % 12) + 1, 2)}`;
    const at = index - back;
    const year = Math.floor(at / 12);
    const month = (at % 12) + 1;
    return { settleMonth, contractDate: `${year}-${pad(month, 2)}-${pad(Math.min(day, refDaysInMonth(year, month)), 2)}` };
  });

describe('calendar fast paths equal the regex implementation', () => {
  it('parseSettleMonth and isValidSettleMonth agree on any string, errors included', () => {
    fc.assert(
      fc.property(monthLike, (s) => {
        expect(outcome(() => parseSettleMonth(s))).toEqual(outcome(() => refParseSettleMonth(s)));
        expect(outcome(() => parseSettleMonth(s, 'fromMonth'))).toEqual(outcome(() => refParseSettleMonth(s, 'fromMonth')));
        expect(isValidSettleMonth(s)).toBe(refIsValidSettleMonth(s));
      }),
      RUNS,
    );
  });

  it('parseIsoDate agrees on any string, errors included', () => {
    fc.assert(
      fc.property(dateLike, (s) => {
        expect(outcome(() => parseIsoDate(s))).toEqual(outcome(() => refParseIsoDate(s)));
        expect(outcome(() => parseIsoDate(s, 'contractDate'))).toEqual(outcome(() => refParseIsoDate(s, 'contractDate')));
      }),
      RUNS,
    );
  });

  it('first and last day of a month agree, memoised or not', () => {
    fc.assert(
      fc.property(monthLike, (s) => {
        expect(outcome(() => lastDayOfMonth(s))).toEqual(outcome(() => refLastDayOfMonth(s)));
        expect(outcome(() => lastDayOfMonth(s))).toEqual(outcome(() => refLastDayOfMonth(s)));
        expect(outcome(() => firstDayOfMonth(s))).toEqual(outcome(() => refFirstDayOfMonth(s)));
      }),
      RUNS,
    );
  });

  it('monthsElapsed agrees for any pair of date-like strings', () => {
    fc.assert(
      fc.property(dateLike, dateLike, (a, b) => {
        expect(outcome(() => monthsElapsed(a, b))).toEqual(outcome(() => refMonthsElapsed(a, b)));
      }),
      RUNS,
    );
    fc.assert(
      fc.property(realDate, realDate, (a, b) => {
        expect(monthsElapsed(a, b)).toBe(refMonthsElapsed(a, b));
      }),
      RUNS,
    );
  });

  it('commission year, premium due and maintain eligibility agree around the maintain window', () => {
    fc.assert(
      fc.property(contractInMonth, status, payCycle, ({ settleMonth, contractDate }, st, cycle) => {
        expect(commissionYearInMonth(contractDate, settleMonth)).toBe(refCommissionYearInMonth(contractDate, settleMonth));
        expect(outcome(() => isPremiumDue(contractDate, cycle, settleMonth))).toEqual(
          outcome(() => refIsPremiumDue(contractDate, cycle, settleMonth)),
        );
        const contract = { status: st, contractDate, payCycle: cycle };
        expect(outcome(() => maintainEligibility(contract, settleMonth))).toEqual(
          outcome(() => refMaintainEligibility(contract, settleMonth)),
        );
      }),
      RUNS,
    );
  });

  it('they agree on bad months, bad dates and bad cycles, reporting the same first error', () => {
    fc.assert(
      fc.property(dateLike, monthLike, status, payCycle, (contractDate, settleMonth, st, cycle) => {
        expect(outcome(() => commissionYearInMonth(contractDate, settleMonth))).toEqual(
          outcome(() => refCommissionYearInMonth(contractDate, settleMonth)),
        );
        expect(outcome(() => isPremiumDue(contractDate, cycle, settleMonth))).toEqual(
          outcome(() => refIsPremiumDue(contractDate, cycle, settleMonth)),
        );
        const contract = { status: st, contractDate, payCycle: cycle };
        expect(outcome(() => maintainEligibility(contract, settleMonth))).toEqual(
          outcome(() => refMaintainEligibility(contract, settleMonth)),
        );
      }),
      RUNS,
    );
  });
});

describe('calendar fast paths on edge cases', () => {
  it('counts a contract on the 29th, 30th or 31st against short months like the reference', () => {
    const cases: [string, string][] = [
      ['2024-01-31', '202402'],
      ['2023-01-31', '202302'],
      ['2020-02-29', '202102'],
      ['2020-02-29', '202402'],
      ['2019-03-31', '202004'],
      ['2019-08-30', '202102'],
      ['2024-06-01', '202405'],
      ['2024-05-31', '202405'],
      ['2099-02-28', '210002'],
    ];
    for (const [date, month] of cases) {
      for (const cycle of ['MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SINGLE']) {
        const contract = { status: 'ACTIVE', contractDate: date, payCycle: cycle };
        expect(maintainEligibility(contract, month)).toEqual(refMaintainEligibility(contract, month));
        expect(isPremiumDue(date, cycle, month)).toBe(refIsPremiumDue(date, cycle, month));
      }
      expect(commissionYearInMonth(date, month)).toBe(refCommissionYearInMonth(date, month));
    }
  });

  it('keeps the quirk that a contract dated right after the month counts 0 months (premium due, year 0)', () => {
    expect(isPremiumDue('2024-06-01', 'SINGLE', '202405')).toBe(true);
    expect(maintainEligibility({ status: 'ACTIVE', contractDate: '2024-06-01', payCycle: 'MONTHLY' }, '202405')).toEqual({
      eligible: false,
      commissionYear: 0,
      reason: 'COMMISSION_YEAR',
    });
  });

  it('month ends of leap and century years', () => {
    expect(['202402', '202302', '210002', '200002', '000102', '999912'].map(lastDayOfMonth)).toEqual([
      '2024-02-29',
      '2023-02-28',
      '2100-02-28',
      '2000-02-29',
      '0001-02-28',
      '9999-12-31',
    ]);
  });

  it('stays right while far more settle months are asked for than the memo holds', () => {
    for (let round = 0; round < 2; round++) {
      for (let index = 2000 * 12; index < 2030 * 12; index++) {
        const month = `${Math.floor(index / 12)}${pad((index % 12) + 1, 2)}`;
        expect(lastDayOfMonth(month)).toBe(refLastDayOfMonth(month));
      }
    }
  });

  it('never lets a caller change the memoised month end', () => {
    const parsed = parseSettleMonth('202402');
    parsed.month = 3;
    expect(lastDayOfMonth('202402')).toBe('2024-02-29');
    expect(parseSettleMonth('202402')).toEqual({ year: 2024, month: 2 });
  });

  it('treats values that are not strings like the regex did (converted to text)', () => {
    const loose = (v: unknown) => v as string;
    for (const v of [202402, null, undefined, 20240, { toString: () => '202402' }]) {
      expect(outcome(() => parseSettleMonth(loose(v)))).toEqual(outcome(() => refParseSettleMonth(loose(v))));
      expect(outcome(() => lastDayOfMonth(loose(v)))).toEqual(outcome(() => refLastDayOfMonth(loose(v))));
      expect(isValidSettleMonth(loose(v))).toBe(refIsValidSettleMonth(loose(v)));
    }
    for (const v of [20240101, null, undefined, { toString: () => '2024-01-31' }]) {
      expect(outcome(() => parseIsoDate(loose(v)))).toEqual(outcome(() => refParseIsoDate(loose(v))));
    }
    expect(isDateInSettleMonth('2024-02-29', '202402')).toBe(true);
  });
});
