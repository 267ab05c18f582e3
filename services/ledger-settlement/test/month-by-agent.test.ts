import { describe, expect, it } from 'vitest';
import { ByAgent } from '../src/calc/month-by-agent.js';

const rows = (...ids: number[]) => ids.map((agent_id, i) => ({ agent_id, i }));

describe('ByAgent (a month read once, sliced by agent-range chunk)', () => {
  const book = new ByAgent(rows(3, 3, 5, 8, 8, 8, 13));

  it('returns exactly the rows of agents in [from, to], bounds included, in agent order', () => {
    expect(book.slice(3, 8).map((r) => r.i)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(book.slice(4, 7).map((r) => r.i)).toEqual([2]);
    expect(book.slice(8, 8).map((r) => r.i)).toEqual([3, 4, 5]);
    expect(book.slice(9, 12)).toEqual([]);
    expect(book.slice(1, 2)).toEqual([]);
    expect(book.slice(13, 1000).map((r) => r.i)).toEqual([6]);
  });

  it('consecutive chunk ranges split the month without losing or repeating a row', () => {
    const chunks = [
      [1, 4],
      [5, 7],
      [8, 12],
      [13, 20],
    ] as const;
    const seen = chunks.flatMap(([from, to]) => book.slice(from, to).map((r) => r.i));
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('refuses rows that are not sorted by agent_id (a slice would silently miss rows)', () => {
    expect(() => new ByAgent(rows(1, 5, 2))).toThrow(/sorted by agent_id/);
  });
});
