import { describe, expect, it } from 'vitest';
import { reconcileLedgerAmount } from './ledger-reconcile.js';

describe('reconcileLedgerAmount', () => {
  it('is PENDING without a diff when nothing was reported', () => {
    expect(reconcileLedgerAmount(null, '100.00', '0')).toEqual({ status: 'PENDING', diff: null });
    expect(reconcileLedgerAmount(undefined, '100.00', '0')).toEqual({ status: 'PENDING', diff: null });
  });

  it('matches an equal amount at threshold 0 and reports reported - computed', () => {
    const r = reconcileLedgerAmount('12000.00', '12000.00', '0');
    expect(r.status).toBe('MATCHED');
    expect(r.diff?.toFixed(2)).toBe('0.00');
  });

  it('is DIFF beyond the threshold in either direction and MATCHED on it', () => {
    expect(reconcileLedgerAmount('100.01', '100.00', '0').status).toBe('DIFF');
    expect(reconcileLedgerAmount('99.99', '100.00', '0').diff?.toFixed(2)).toBe('-0.01');
    expect(reconcileLedgerAmount('99.50', '100.00', '0.50').status).toBe('MATCHED');
    expect(reconcileLedgerAmount('99.49', '100.00', '0.50').status).toBe('DIFF');
  });

  it('refuses a negative threshold', () => {
    expect(() => reconcileLedgerAmount('1', '1', '-1')).toThrow(expect.objectContaining({ code: 'NEGATIVE_AMOUNT' }));
  });
});
