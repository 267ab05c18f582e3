import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE, SERVICE_NAMES, SERVICE_PREFIXES, resolveService } from '../src/route-table.js';

/** The "Gateway routing" table of docs/menus-and-routing.md, which is binding. */
function documentedPrefixes(): Record<string, string[]> {
  const doc = readFileSync(new URL('../../../docs/menus-and-routing.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Gateway routing'));
  const rows = section.split('\n').filter((line) => /^\| [a-z-]+ \(\d+\) \|/.test(line));
  return Object.fromEntries(
    rows.map((line) => {
      const [, service, prefixes] = /^\| ([a-z-]+) \(\d+\) \| (.+) \|$/.exec(line)!;
      return [service!, prefixes!.split(',').map((p) => p.trim())];
    }),
  );
}

describe('route table', () => {
  it('matches the binding table in docs/menus-and-routing.md exactly', () => {
    const documented = documentedPrefixes();
    expect(Object.keys(documented)).toEqual([...SERVICE_NAMES]);
    for (const service of SERVICE_NAMES) expect([...SERVICE_PREFIXES[service]]).toEqual(documented[service]);
  });

  it('orders every prefix before any shorter prefix it extends', () => {
    const index = (p: string) => ROUTE_TABLE.findIndex((r) => r.prefix === p);
    expect(index('/api/common/account-codes')).toBeLessThan(index('/api/common'));
    for (let i = 1; i < ROUTE_TABLE.length; i++) {
      expect(ROUTE_TABLE[i - 1]!.prefix.length).toBeGreaterThanOrEqual(ROUTE_TABLE[i]!.prefix.length);
    }
  });

  it('has no prefix owned by two services', () => {
    const prefixes = ROUTE_TABLE.map((r) => r.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('resolves a path to its owning service by whole path segments', () => {
    expect(resolveService('/api/common/account-codes/3')).toBe('payment-tax');
    expect(resolveService('/api/common/codes/X')).toBe('auth-platform');
    expect(resolveService('/api/contracts?pageNum=1')).toBe('master-data');
    expect(resolveService('/api/contract-successions/1')).toBe('master-data');
    expect(resolveService('/api/upload-templates')).toBe('intake');
    expect(resolveService('/api/settle/1/confirm')).toBe('ledger-settlement');
    expect(resolveService('/api/kpi/monthly')).toBe('analytics');
    expect(resolveService('/api/settlement')).toBeUndefined();
    expect(resolveService('/api/nothing')).toBeUndefined();
  });
});
