import { describe, expect, it } from 'vitest';
import { disputeTarget, fromCents, monthViews, partsTotal, suggestedReason, toCents, withinBalance, type SettleFigures } from './portal-model.js';

// Agent 6 of the browser tests' demo book, 2025-07 (hand-checked from its explain lines): recruit 15,565.66 + 17,443.08,
// maintenance 27 lines = 148,876.82, persistency bonus 66,066.00 x 15% = 9,909.90; tax 3.3% of 191,795.46 = 6,329.25.
const july: SettleFigures = {
  settleId: 6,
  settleMonth: '202507',
  status: 'CONFIRMED',
  recruitTotal: '33008.74',
  maintainTotal: '148876.82',
  overrideTotal: '0.00',
  otherTotal: '9909.90',
  correctionTotal: '0.00',
  exceptionPlus: '0.00',
  exceptionMinus: '0.00',
  chargebackTotal: '0.00',
  grossAmount: '191795.46',
  taxAmount: '6329.25',
  netAmount: '185466.21',
};
// A month with every part: 100 + 50 + 25.5 + 10 - 3 + 7 - 1.25 - 20 = 168.25
const june: SettleFigures = {
  ...july,
  settleId: 3,
  settleMonth: '202506',
  status: 'PAID',
  recruitTotal: '100.00',
  maintainTotal: '50.00',
  overrideTotal: '25.50',
  otherTotal: '10.00',
  correctionTotal: '-3.00',
  exceptionPlus: '7.00',
  exceptionMinus: '1.25',
  chargebackTotal: '20.00',
  grossAmount: '168.25',
  taxAmount: '5.55',
  netAmount: '162.70',
};

describe('the months of an agent', () => {
  it('lists the newest month first with each part of gross adding up to the gross', () => {
    const [first, second] = monthViews([june, july], []);
    expect(first!.settleMonth).toBe('202507');
    expect(first!.parts.map((p) => [p.key, p.amount, p.minus])).toEqual([
      ['recruit', '33008.74', false],
      ['maintain', '148876.82', false],
      ['override', '0.00', false],
      ['other', '9909.90', false],
      ['correction', '0.00', false],
      ['exceptionPlus', '0.00', false],
      ['exceptionMinus', '0.00', true],
      ['chargeback', '0.00', true],
    ]);
    expect(fromCents(partsTotal(first!.parts))).toBe('191795.46');
    expect(first!.partsAddUp).toBe(true);
    expect([first!.gross, first!.tax, first!.deductions, first!.net]).toEqual(['191795.46', '6329.25', null, '185466.21']);
    expect(fromCents(partsTotal(second!.parts))).toBe('168.25');
    expect(second!.partsAddUp).toBe(true);
  });

  it("takes tax, deductions and net from the month's payment once its taxes are calculated, and flags parts that do not add up", () => {
    // agent 6's July payment: income tax 6,329.00 + local tax 633.00 = 6,962.00; 191,795.46 - 6,962.00 - 0.00 = 184,833.46
    const payment = { settleId: 6, incomeTaxAmount: '6329.00', localTaxAmount: '633.00', vatAmount: '0.00', deductionAmount: '0.00', netAmount: '184833.46' };
    const [taxed] = monthViews([july], [{ ...payment, taxCalculatedAt: '2025-08-10T01:00:00Z' }]);
    expect([taxed!.gross, taxed!.tax, taxed!.deductions, taxed!.net]).toEqual(['191795.46', '6962.00', '0.00', '184833.46']);
    // generated but not taxed yet: its net is still the gross, so the settlement's figures stand
    const [untaxed] = monthViews([july], [{ ...payment, netAmount: '191795.46', incomeTaxAmount: '0.00', localTaxAmount: '0.00', taxCalculatedAt: null }]);
    expect([untaxed!.tax, untaxed!.deductions, untaxed!.net]).toEqual(['6329.25', null, '185466.21']);
    const [deducted] = monthViews([june], [{ settleId: 3, incomeTaxAmount: '5.04', localTaxAmount: '0.50', vatAmount: null, deductionAmount: '12.70', netAmount: '150.01', taxCalculatedAt: '2025-07-10T01:00:00Z' }]);
    expect([deducted!.tax, deducted!.deductions, deducted!.net]).toEqual(['5.54', '12.70', '150.01']);
    const [off] = monthViews([{ ...june, grossAmount: '168.26' }], []);
    expect(off!.partsAddUp).toBe(false);
  });
});

describe('money as cents', () => {
  it('reads and writes two places exactly, signs included', () => {
    expect(toCents('191795.46')).toBe(19179546n);
    expect(toCents('-3')).toBe(-300n);
    expect(toCents('0.5')).toBe(50n);
    expect(toCents('1.234')).toBeUndefined();
    expect(toCents('12,000')).toBeUndefined();
    expect(fromCents(-5n)).toBe('-0.05');
    expect(fromCents(18546621n)).toBe('185466.21');
  });

  it('checks a withdraw amount against the balance', () => {
    expect(withinBalance('185466.21', '185466.21')).toBe('ok');
    expect(withinBalance('185466.22', '185466.21')).toBe('tooMuch');
    expect(withinBalance('0', '100.00')).toBe('invalid');
    expect(withinBalance('abc', '100.00')).toBe('invalid');
  });
});

describe('a dispute raised on an explain line', () => {
  it('points at the ledger row of the line, or at the settle row where a line has no ledger row of its own', () => {
    expect(disputeTarget('recruit', { ledgerId: 116 }, 6)).toEqual({ targetTable: 'recruit_ledger', targetId: 116 });
    expect(disputeTarget('maintain', { ledgerId: 86 }, 6)).toEqual({ targetTable: 'maintain_ledger', targetId: 86 });
    expect(disputeTarget('override', { osId: 9 }, 6)).toEqual({ targetTable: 'override_settle', targetId: 9 });
    expect(disputeTarget('exceptionMinus', { ledgerId: 4 }, 6)).toEqual({ targetTable: 'exception_ledger', targetId: 4 });
    expect(disputeTarget('chargeback', { cbId: 5 }, 6)).toEqual({ targetTable: 'chargeback', targetId: 5 });
    expect(disputeTarget('persistency', { ledgerId: 76 }, 6)).toEqual({ targetTable: 'settle_master', targetId: 6 });
    expect(disputeTarget('recruit', {}, 6)).toEqual({ targetTable: 'settle_master', targetId: 6 });
    expect([suggestedReason('chargeback'), suggestedReason('excluded'), suggestedReason('recruit')]).toEqual(['CHARGEBACK', 'EXCEPTION', 'WRONG_AMOUNT']);
  });
});
