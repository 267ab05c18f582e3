import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as db from '../src/index.js';
import { readCheckValueLists } from '../src/schema-check.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';
import { VALUE_SETS } from '../src/values.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

/** Every `as const` string array @csp/db exports, by export name (VALUE_SETS and area files alike). */
function exportedValueSets(): Map<string, readonly string[]> {
  const sets = new Map<string, readonly string[]>();
  for (const [name, value] of Object.entries(db)) {
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
      sets.set(name, value as readonly string[]);
    }
  }
  return sets;
}

describe('value sets', () => {
  it('every CHECK (col IN (...)) of the migrated schema lists exactly a value set exported by @csp/db', async () => {
    const sets = [...exportedValueSets().values()].map((s) => s.join());
    const unmatched = (await readCheckValueLists(t.pool))
      .filter((check) => !sets.includes(check.values.join()))
      .map((check) => `${check.table}.${check.column} IN (${check.values.join(', ')})`);
    expect(unmatched).toEqual([]);
  });

  it('the CHECK lists of the value sets the schema types use are the ones these columns carry', async () => {
    const checks = await readCheckValueLists(t.pool);
    const valuesOf = (table: string, column: string) =>
      checks.find((c) => c.table === table && c.column === column)?.values;
    expect(valuesOf('users', 'status')).toEqual([...VALUE_SETS.USER_STATUS]);
    expect(valuesOf('agent', 'status')).toEqual([...VALUE_SETS.AGENT_STATUS]);
    expect(valuesOf('contract', 'status')).toEqual([...VALUE_SETS.CONTRACT_STATUS]);
    expect(valuesOf('settle_master', 'status')).toEqual([...VALUE_SETS.SETTLE_STATUS]);
    expect(valuesOf('recruit_ledger', 'status')).toEqual([...VALUE_SETS.LEDGER_STATUS]);
    expect(valuesOf('payment', 'status')).toEqual([...VALUE_SETS.PAYMENT_STATUS]);
    expect(valuesOf('exception_ledger', 'approve_status')).toEqual([...VALUE_SETS.APPROVE_STATUS]);
    expect(valuesOf('organization', 'org_type')).toEqual([...VALUE_SETS.ORG_TYPE]);
    expect(valuesOf('insurance_company', 'company_type')).toEqual([...VALUE_SETS.COMPANY_TYPE]);
    expect(valuesOf('data_domain', 'category')).toEqual([...VALUE_SETS.DOMAIN_CATEGORY]);
  });

  it('every system common-code group of the seed has a value set listing its codes in sort order', async () => {
    const { rows } = await t.pool.query<{ group_code: string; is_system: string; codes: string[] }>(
      `SELECT g.group_code, g.is_system,
              coalesce(array_agg(c.code ORDER BY c.sort_order, c.code) FILTER (WHERE c.code IS NOT NULL), '{}') AS codes
         FROM common_code_group g LEFT JOIN common_code c ON c.group_code = g.group_code AND c.is_active
        GROUP BY g.group_code, g.is_system ORDER BY g.group_code`,
    );
    const sets: Record<string, readonly string[]> = VALUE_SETS;
    const missing = rows
      .filter((r) => r.is_system === 'Y' && !(r.group_code in sets))
      .map((r) => r.group_code);
    const differing = rows
      .filter((r) => r.group_code in sets && sets[r.group_code]!.join() !== r.codes.join())
      .map(
        (r) => `${r.group_code}: seed ${r.codes.join(', ')} / value set ${sets[r.group_code]!.join(', ')}`,
      );
    expect(missing).toEqual([]);
    expect(differing).toEqual([]);
    // The groups an administrator maintains freely have no value set (is_system 'N').
    expect(rows.filter((r) => !(r.group_code in sets)).map((r) => r.group_code)).toEqual([
      'BANK',
      'FILE_TYPE',
      'GRADE_GROUP',
      'HOLD_REASON',
      'NOTI_TYPE',
    ]);
  });

  it('LEDGER_STATUS carries PAID like the ledger status CHECK (V105)', async () => {
    const { rows } = await t.pool.query<{ code: string }>(
      `SELECT code FROM common_code WHERE group_code = 'LEDGER_STATUS' ORDER BY sort_order`,
    );
    expect(rows.map((r) => r.code)).toEqual(['CALCULATED', 'CONFIRMED', 'HOLD', 'PAID']);
  });

  it('no value set repeats a value', () => {
    const repeated = [...exportedValueSets()].filter(([, values]) => new Set(values).size !== values.length);
    expect(repeated).toEqual([]);
  });
});
