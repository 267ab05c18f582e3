import { describe, expect, it } from 'vitest';
import { calcSettlementAggregate } from './aggregate.js';
import { calcSettlementWithCorrection, correctionAmount, correctionTargetMonth } from './correction.js';
import { evaluateHoldCondition, type HoldFacts } from './correction-hold.js';
import { retroDifference } from './correction-retro.js';
import { calcTerminationSettlement, taxInvoiceAmounts } from './correction-termination.js';
import { DomainError } from './errors.js';
import { formatMoney } from './rounding.js';

const sums = {
  recruit: '1000.00',
  maintain: '500.00',
  override: '0.00',
  exceptionPlus: '100.00',
  exceptionMinus: '50.00',
  chargeback: '200.00',
};
const money = (a: Record<string, { toString(): string }>) =>
  Object.fromEntries(Object.entries(a).map(([k, v]) => [k, formatMoney(v.toString())]));

describe('settlement aggregate with corrections', () => {
  it('equals rule 4 exactly when there is no correction', () => {
    expect(money({ ...calcSettlementWithCorrection({ ...sums, correction: '0' }) })).toEqual(
      money({ ...calcSettlementAggregate(sums), correction: '0' } as never),
    );
  });

  it('adds the correction to gross and recomputes tax and net', () => {
    // base gross 1000 + 500 + 100 - 200 - 50 = 1350.00; + 123.45 = 1473.45;
    // tax = pct(1473.45, 3.3) = 48.62385 -> 48.62; net = 1424.83
    const a = calcSettlementWithCorrection({ ...sums, correction: '123.45' }, '3.3');
    expect([a.correction, a.gross, a.tax, a.net].map((d) => formatMoney(d))).toEqual([
      '123.45',
      '1473.45',
      '48.62',
      '1424.83',
    ]);
    expect(formatMoney(a.recruit)).toBe('1000.00');
  });

  it('takes a negative correction, down to a negative gross and tax', () => {
    // 1350.00 - 1500.00 = -150.00; tax = pct(-150, 3.3) = -4.95; net -145.05
    const a = calcSettlementWithCorrection({ ...sums, correction: '-1500.00' }, '3.3');
    expect([a.gross, a.tax, a.net].map((d) => formatMoney(d))).toEqual(['-150.00', '-4.95', '-145.05']);
  });
});

describe('correction amount and target month', () => {
  it('accepts signed amounts with two places and refuses 0 or three places', () => {
    expect(formatMoney(correctionAmount('-10.5'))).toBe('-10.50');
    expect(() => correctionAmount('0.00')).toThrow(DomainError);
    expect(() => correctionAmount('1.005')).toThrow(/at most 2 decimal places/);
  });

  it('books into the first month from the original on that is neither closed nor locked for the agent', () => {
    const closed = new Set(['202501', '202502']);
    expect(correctionTargetMonth({ originalMonth: '202501', closedMonths: closed, lockedMonths: new Set() })).toBe(
      '202503',
    );
    expect(
      correctionTargetMonth({ originalMonth: '202501', closedMonths: closed, lockedMonths: new Set(['202503']) }),
    ).toBe('202504');
    expect(correctionTargetMonth({ originalMonth: '202412', closedMonths: closed, lockedMonths: new Set() })).toBe(
      '202412',
    );
    expect(
      correctionTargetMonth({ originalMonth: '202411', closedMonths: new Set(['202411', '202412']), lockedMonths: new Set() }),
    ).toBe('202501');
  });

  it('gives up after the horizon', () => {
    expect(() =>
      correctionTargetMonth({ originalMonth: '202501', closedMonths: new Set(['202501', '202502']), lockedMonths: new Set(), horizon: 1 }),
    ).toThrow(/no open month within 1 months after 202501/);
  });
});

describe('hold release conditions', () => {
  const facts = (extra: Partial<HoldFacts> = {}): HoldFacts => ({
    today: '2025-03-10',
    validLicense: null,
    trainingHours: '0',
    disputeStatus: null,
    ...extra,
  });

  it('a date condition is met on and after its date', () => {
    const c = { type: 'UNTIL_DATE', untilDate: '2025-03-10' } as const;
    expect(evaluateHoldCondition(c, facts({ today: '2025-03-09' }))).toEqual({ met: false, because: 'held until 2025-03-10' });
    expect(evaluateHoldCondition(c, facts())).toEqual({ met: true, because: '2025-03-10 reached' });
  });

  it('a license condition waits for a license valid today', () => {
    const c = { type: 'LICENSE_VALID' } as const;
    expect(evaluateHoldCondition(c, facts())).toEqual({ met: false, because: 'no license valid on 2025-03-10' });
    expect(evaluateHoldCondition(c, facts({ validLicense: { licenseNo: 'L-1', expiryDate: '2030-01-01' } }))).toEqual({
      met: true,
      because: 'license L-1 valid until 2030-01-01',
    });
    expect(evaluateHoldCondition(c, facts({ validLicense: { licenseNo: 'L-2', expiryDate: null } })).because).toBe(
      'license L-2 valid without expiry',
    );
  });

  it('a training condition compares completed hours with the hours needed', () => {
    const c = { type: 'TRAINING_HOURS', year: 2025, hours: '12' } as const;
    expect(evaluateHoldCondition(c, facts({ trainingHours: '11.50' }))).toEqual({
      met: false,
      because: '11.50 of 12.00 training hours in 2025',
    });
    expect(evaluateHoldCondition(c, facts({ trainingHours: '12.00' })).met).toBe(true);
  });

  it('a dispute condition is met once the dispute is APPROVED or REJECTED; no condition is never met', () => {
    const c = { type: 'DISPUTE_CLOSED', disputeId: 7 } as const;
    expect(evaluateHoldCondition(c, facts({ disputeStatus: 'IN_REVIEW' }))).toEqual({ met: false, because: 'dispute 7 is IN_REVIEW' });
    expect(evaluateHoldCondition(c, facts({ disputeStatus: 'REJECTED' }))).toEqual({ met: true, because: 'dispute 7 REJECTED' });
    expect(evaluateHoldCondition(c, facts())).toEqual({ met: false, because: 'dispute 7 not found' });
    expect(evaluateHoldCondition({ type: 'NONE' }, facts()).met).toBe(false);
  });
});

describe('retroactive difference', () => {
  it('sums repriced - stored - compensated per line and gives the direction', () => {
    const r = retroDifference([
      { stored: '600.00', repriced: '700.00', compensated: '0' },
      { stored: '300.00', repriced: '350.00', compensated: '20.00' },
    ]);
    expect(r.diffs.map((d) => formatMoney(d))).toEqual(['100.00', '30.00']);
    expect([formatMoney(r.total), r.direction, formatMoney(r.amount)]).toEqual(['130.00', 'PLUS', '130.00']);
    const down = retroDifference([{ stored: '600.00', repriced: '550.00', compensated: '0' }]);
    expect([down.direction, formatMoney(down.amount)]).toEqual(['MINUS', '50.00']);
    expect(retroDifference([{ stored: '600.00', repriced: '700.00', compensated: '100.00' }]).direction).toBeNull();
  });
});

describe('termination settlement and tax invoice amounts', () => {
  it('final net = unpaid confirmed - accelerated chargebacks - deductions + exceptions; negative is a receivable', () => {
    const ok = calcTerminationSettlement({
      unpaidConfirmed: '5000.00',
      futureChargebacks: '1200.00',
      pendingDeductions: '300.00',
      pendingExceptions: '-50.00',
    });
    expect([formatMoney(ok.finalNet), formatMoney(ok.receivable)]).toEqual(['3450.00', '0.00']);
    const owed = calcTerminationSettlement({
      unpaidConfirmed: '100.00',
      futureChargebacks: '400.00',
      pendingDeductions: '0',
      pendingExceptions: '0',
    });
    expect([formatMoney(owed.finalNet), formatMoney(owed.receivable)]).toEqual(['-300.00', '300.00']);
  });

  it('a tax invoice totals supply and VAT', () => {
    const t = taxInvoiceAmounts('1000000.00', '100000.00');
    expect(formatMoney(t.total)).toBe('1100000.00');
    expect(() => taxInvoiceAmounts('-1', '0')).toThrow(DomainError);
  });
});
