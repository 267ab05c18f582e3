import { describe, expect, it } from 'vitest';
import { en } from '../i18n/messages.js';
import { LINE_COLUMNS, lineColumns, SECTION_TITLES, TOTAL_TITLES } from './explain-columns.js';

describe('an explain reads in words', () => {
  it('shows a recruit line by policy, rates and amounts, never by its internal ids or basis', () => {
    const row = {
      ledgerId: 7, contractId: 9, policyNo: 'P-1', productCode: 'LIFE01', commissionYear: 1, premium: '100000.00',
      companyRate: '30.0000', companyAmount: '30000.00', payoutRate: '70.0000', agentAmount: '21000.00', status: 'CALCULATED', basis: {},
    };
    expect(lineColumns([row]).map((c) => c.key)).toEqual([
      'policyNo', 'productCode', 'commissionYear', 'premium', 'companyRate', 'companyAmount', 'payoutRate', 'agentAmount', 'status',
    ]);
  });

  it('names every column, section and total from the catalog', () => {
    for (const key of [...LINE_COLUMNS.map((c) => c.label), ...Object.values(SECTION_TITLES), ...Object.values(TOTAL_TITLES)]) {
      expect(en[key], key).toBeTruthy();
    }
  });
});
