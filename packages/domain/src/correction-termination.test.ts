import { describe, expect, it } from 'vitest';
import { terminationTotals } from './correction-termination.js';
import { DomainError } from './errors.js';
import { formatMoney } from './rounding.js';

describe('termination totals from the rows counted', () => {
  it('groups the signed contributions into the four components; their sum is the final net', () => {
    const t = terminationTotals([
      { kind: 'UNPAID_CONFIRMED', contribution: '1000.00' },
      { kind: 'UNPAID_CONFIRMED', contribution: '-40.00' },
      { kind: 'FUTURE_CHARGEBACK', contribution: '-600.00' },
      { kind: 'FUTURE_CHARGEBACK', contribution: '-600.00' },
      { kind: 'PENDING_DEDUCTION', contribution: '-150.00' },
      { kind: 'PENDING_EXCEPTION', contribution: '25.50' },
      { kind: 'PENDING_EXCEPTION', contribution: '-5.50' },
    ]);
    // 960.00 - 1200.00 - 150.00 + 20.00 = -370.00
    expect(
      [t.unpaidConfirmed, t.futureChargebacks, t.pendingDeductions, t.pendingExceptions, t.finalNet, t.receivable].map((d) => formatMoney(d)),
    ).toEqual(['960.00', '1200.00', '150.00', '20.00', '-370.00', '370.00']);
  });

  it('nothing counted is a zero final net; a chargeback counted as owed to the agent is refused', () => {
    const t = terminationTotals([]);
    expect([formatMoney(t.finalNet), formatMoney(t.receivable), formatMoney(t.futureChargebacks)]).toEqual(['0.00', '0.00', '0.00']);
    expect(() => terminationTotals([{ kind: 'FUTURE_CHARGEBACK', contribution: '10.00' }])).toThrow(DomainError);
  });
});
