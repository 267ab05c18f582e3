import { describe, expect, it } from 'vitest';
import type { SettleSummary } from './settle-api.js';
import { calculatedOf } from './settle-month.js';

const totals = (net: string) => ({
  recruit: '0.00', maintain: '0.00', override: '0.00', exceptionPlus: '0.00', exceptionMinus: '0.00',
  chargeback: '0.00', correction: '0.00', other: '0.00', gross: net, tax: '0.00', net,
});

describe('month-wide confirm scope', () => {
  it('takes the count and net total of the CALCULATED rows only', () => {
    const summary: SettleSummary = {
      settleMonth: '202506',
      count: 5,
      totals: totals('900.00'),
      byStatus: [
        { status: 'CALCULATED', count: 3, totals: totals('600.50') },
        { status: 'HOLD', count: 2, totals: totals('299.50') },
      ],
    };
    expect(calculatedOf(summary)).toEqual({ count: 3, net: '600.50' });
  });

  it('is empty without a summary or without CALCULATED rows', () => {
    expect(calculatedOf(undefined)).toEqual({ count: 0, net: '0.00' });
    const summary: SettleSummary = { settleMonth: '202506', count: 1, totals: totals('1.00'), byStatus: [{ status: 'PAID', count: 1, totals: totals('1.00') }] };
    expect(calculatedOf(summary)).toEqual({ count: 0, net: '0.00' });
  });
});
