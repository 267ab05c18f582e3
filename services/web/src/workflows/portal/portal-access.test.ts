import { describe, expect, it } from 'vitest';
import { isAgentOnly, isPortalPath, portalPageOf } from './portal-access.js';

describe('who gets the agent portal and which pages are its own', () => {
  it('is an AGENT-only user: a second role (or none) keeps the operator screens', () => {
    expect(isAgentOnly({ roleCodes: ['AGENT'] })).toBe(true);
    expect(isAgentOnly({ roleCodes: ['AGENT', 'MANAGER'] })).toBe(false);
    expect(isAgentOnly({ roleCodes: ['ADMIN'] })).toBe(false);
    expect(isAgentOnly({ roleCodes: [] })).toBe(false);
    expect(isAgentOnly(undefined)).toBe(false);
  });

  it('knows the home page, the three lists and a month of lines, and nothing of the operator pages', () => {
    for (const path of ['/', '/my/disputes', '/my/statements/', '/my/withdraw', '/my/settle/42']) expect(isPortalPath(path), path).toBe(true);
    for (const path of ['/settle', '/settle/explain/42', '/my/settle', '/my/settle/x', '/payments/withdraw', '/my']) expect(isPortalPath(path), path).toBe(false);
  });

  it('puts a month of lines under "my settlement" in the menu', () => {
    expect(portalPageOf('/my/settle/7')?.label).toBe('portal.menu.mySettlement');
    expect(portalPageOf('/my/withdraw')?.label).toBe('portal.menu.withdraw');
    expect(portalPageOf('/settle')).toBeUndefined();
  });
});
