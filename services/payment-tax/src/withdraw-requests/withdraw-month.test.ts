import { describe, expect, it } from 'vitest';
import { nextMonth, withdrawMonth } from './withdraw-month.js';

describe('the month a withdraw counts for', () => {
  it('is the request month up to the cut-off day and the next month after it', () => {
    expect(withdrawMonth('2025-03-25', 25)).toBe('202503');
    expect(withdrawMonth('2025-03-26', 25)).toBe('202504');
    expect(withdrawMonth('2025-12-31', 25)).toBe('202601');
    expect(withdrawMonth('2025-02-01', 1)).toBe('202502');
    expect(withdrawMonth('2025-02-28', 31)).toBe('202502');
    expect(nextMonth('202512')).toBe('202601');
    expect(nextMonth('202509')).toBe('202510');
  });
});
