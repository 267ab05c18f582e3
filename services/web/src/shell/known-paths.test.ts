import { describe, expect, it } from 'vitest';
import { isKnownPath } from './known-paths.js';

describe('an address outside the menu', () => {
  it('is a page of the platform (no access) or no page at all (not found)', () => {
    expect(isKnownPath('/system/users')).toBe(true);
    expect(isKnownPath('/settle/explain/12')).toBe(true);
    expect(isKnownPath('/org/agents/7/edit')).toBe(true);
    expect(isKnownPath('/no/such/page')).toBe(false);
    expect(isKnownPath('/settlement')).toBe(false);
  });
});
