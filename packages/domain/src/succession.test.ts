import { describe, expect, it } from 'vitest';
import { buildSuccessionIndex, resolveSuccession, type SuccessionRow } from './succession.js';

const rows: SuccessionRow[] = [
  { successionId: 1, contractId: 10, fromAgentId: 100, toAgentId: 200, effectiveMonth: '202405', status: 'ACTIVE' },
  { successionId: 2, contractId: 10, fromAgentId: 200, toAgentId: 300, effectiveMonth: '202406', status: 'CANCELLED' },
  { successionId: 3, contractId: 20, fromAgentId: 100, toAgentId: 400, effectiveMonth: '202401', status: 'ACTIVE' },
  { successionId: 4, contractId: 20, fromAgentId: 400, toAgentId: 500, effectiveMonth: '202401', status: 'ACTIVE' },
];

describe('succession index', () => {
  const index = buildSuccessionIndex(rows);

  it('resolves like the array function', () => {
    for (const [contractId, month] of [[10, '202404'], [10, '202405'], [10, '202406'], [20, '202312'], [20, '202401'], [30, '202401']] as const) {
      expect(index.resolve(contractId, month)).toBe(resolveSuccession(rows, contractId, month));
    }
  });

  it('gives the maintain ledger agent: successor or the contract agent', () => {
    expect(index.maintainAgentId(10, 100, '202404')).toBe(100);
    expect(index.maintainAgentId(10, 100, '202406')).toBe(200);
    expect(index.maintainAgentId(20, 100, '202401')).toBe(500);
    expect(index.maintainAgentId(99, 7, '202401')).toBe(7);
  });

  it('validates the settle month', () => {
    expect(() => index.resolve(99, '2024-01')).toThrow(expect.objectContaining({ code: 'INVALID_SETTLE_MONTH' }));
    expect(() => resolveSuccession(rows, 10, '202499')).toThrow(expect.objectContaining({ code: 'INVALID_SETTLE_MONTH' }));
  });
});
