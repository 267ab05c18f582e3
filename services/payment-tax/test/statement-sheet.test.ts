import { describe, expect, it } from 'vitest';
import { grossPartRows } from '../src/statements/statement-sheet.js';

const parts = {
  recruit_total: '0.00',
  maintain_total: '480.10',
  override_total: '0.00',
  other_total: '19.90',
  correction_total: '-5.00',
  exception_plus: '0.00',
  exception_minus: '0.00',
  chargeback_total: '100.00',
};

describe('the parts of gross on a statement', () => {
  it('signs exception minus and chargeback negatively and leaves zero parts unsigned', () => {
    const rows = grossPartRows({ parts: { ...parts, exception_minus: '0.00' }, unsettled: '0.00' });
    expect(rows.map((r) => [r.item, r.amount])).toEqual([
      ['Recruit', '0.00'],
      ['Maintain', '480.10'],
      ['Override', '0.00'],
      ['Other commission', '19.90'],
      ['Correction', '-5.00'],
      ['Exception plus', '0.00'],
      ['Exception minus', '0.00'],
      ['Chargeback', '-100.00'],
    ]);
  });

  it('adds a row for payments without a settlement row, so that the rows still add up to gross', () => {
    // gross 645.00 = 480.10 + 19.90 - 5.00 - 100.00 (= 395.00) + 250.00 paid without a settlement row
    const rows = grossPartRows({ parts, unsettled: '250.00' });
    expect(rows.at(-1)).toEqual({ section: 'Part of gross', item: 'Not from a settlement row', reference: 'payments without a settlement row', amount: '250.00' });
    expect(rows).toHaveLength(9);
  });
});
