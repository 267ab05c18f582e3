import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import {
  ACCEPTED_MISMATCHES,
  checkSchema,
  compareSchemas,
  IGNORED_TABLES,
  mismatchKey,
  parseInList,
  PG_TYPE_CATEGORIES,
  readDbSchema,
  readTypeSchema,
  type TypeSchema,
} from '../src/schema-check.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';
import { copyMigrations, createEmptyDatabase } from './helpers.js';

const SCHEMA_DIR = fileURLToPath(new URL('../src/schema/', import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

let t: TestDatabase;
/** The Database types, read once (one compiler run); checkSchema reads them itself in the first test. */
let types: TypeSchema;
beforeAll(async () => {
  t = await createTestDatabase();
  types = readTypeSchema();
});
afterAll(async () => {
  await t?.drop();
});

async function scratch(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  cleanups.push(db.drop);
  return db;
}

describe('schema check against the migrated database', () => {
  it('finds no disagreement between the Database types and a freshly migrated database', async () => {
    expect(await checkSchema(t.pool)).toEqual([]);
  });

  it('still finds every accepted disagreement (an entry that no longer disagrees must be removed)', async () => {
    const all = compareSchemas(types, await readDbSchema(t.pool), { accept: {} });
    expect(all.map(mismatchKey).sort()).toEqual(Object.keys(ACCEPTED_MISMATCHES).sort());
  });

  it('ignores only tables that exist and have no type', async () => {
    const db = await readDbSchema(t.pool);
    for (const table of Object.keys(IGNORED_TABLES)) {
      expect(db.has(table)).toBe(true);
      expect(types.has(table)).toBe(false);
    }
  });

  it('reads each pg type as PG_TYPE_CATEGORIES says through a pool from createPool (pool.ts parsers)', async () => {
    const { rows } = await t.pool.query<Record<string, unknown>>(
      `SELECT 1::int2 AS int2, 1::int4 AS int4, 9007199254740991::int8 AS int8, 1.5::float4 AS float4,
              1.5::float8 AS float8, 1::oid AS oid, 12.30::numeric(15,2) AS numeric, 'x'::text AS text,
              'x'::varchar(5) AS varchar, 'x'::char(1) AS bpchar, 'x'::name AS name,
              gen_random_uuid() AS uuid, true AS bool, DATE '2025-01-31' AS date,
              TIMESTAMP '2025-01-31 10:00' AS timestamp, now() AS timestamptz,
              '{"a": 1}'::json AS json, '[1]'::jsonb AS jsonb,
              ARRAY[1, 9007199254740991]::int8[] AS _int8`,
    );
    const row = rows[0]!;
    const read = Object.fromEntries(
      Object.keys(PG_TYPE_CATEGORIES).map((udt) => {
        const v = row[udt];
        const category =
          v instanceof Date ? 'Date' : udt.startsWith('_') && Array.isArray(v) ? 'array' : typeof v === 'object' && v !== null ? 'json' : typeof v;
        return [udt, category];
      }),
    );
    expect(read).toEqual(PG_TYPE_CATEGORIES);
    expect(row.int8).toBe(9007199254740991);
    expect(row._int8).toEqual([1, 9007199254740991]);
    expect(row.numeric).toBe('12.30');
    expect(row.date).toBe('2025-01-31');
  });

  it('reports exactly the column of a migration that adds one without the type change', async () => {
    const copy = await copyMigrations();
    cleanups.push(copy.remove);
    await writeFile(
      join(copy.dir, 'V999__extra_col.sql'),
      'ALTER TABLE contract ADD COLUMN extra_col text;\n',
    );
    const db = await createEmptyDatabase();
    cleanups.push(db.drop);
    const pool = db.newPool();
    await migrate(pool, { migrationsDir: copy.dir });

    expect(compareSchemas(types, await readDbSchema(pool))).toEqual([
      {
        kind: 'column-not-in-types',
        table: 'contract',
        column: 'extra_col',
        message: "column contract.extra_col (text) has no property in the table's interface",
      },
    ]);
  });

  it('reports a new table, a dropped column, a nullability, a type and a CHECK value change', async () => {
    const db = await scratch();
    await db.pool.query(`
      CREATE TABLE extra_table (id bigint PRIMARY KEY);
      ALTER TABLE notice DROP COLUMN post_to;
      ALTER TABLE notice ALTER COLUMN content DROP NOT NULL;
      ALTER TABLE notice ALTER COLUMN view_count TYPE numeric(10,0);
      ALTER TABLE agent DROP CONSTRAINT agent_status_check,
        ADD CONSTRAINT agent_status_check CHECK (status IN ('ACTIVE', 'LEAVE', 'SUSPEND', 'RETIRED'));
    `);

    expect(compareSchemas(types, await readDbSchema(db.pool))).toEqual([
      {
        kind: 'values',
        table: 'agent',
        column: 'status',
        message:
          'agent.status is CHECKed IN (ACTIVE, LEAVE, RETIRED, SUSPEND) but typed ACTIVE | LEAVE | SUSPEND',
      },
      {
        kind: 'table-not-in-types',
        table: 'extra_table',
        message: 'table extra_table has no property in the Database interface',
      },
      {
        kind: 'nullability',
        table: 'notice',
        column: 'content',
        message: 'notice.content is nullable in the database but the type (string) has no null',
      },
      {
        kind: 'column-not-in-db',
        table: 'notice',
        column: 'post_to',
        message: 'property notice.post_to has no column in the database',
      },
      {
        kind: 'type',
        table: 'notice',
        column: 'view_count',
        message: 'notice.view_count is numeric (read as string) but the type selects number',
      },
    ]);
  });

  it('reports a type property without a column, declared in an in-memory augmentation', async () => {
    const sources = {
      [join(SCHEMA_DIR, '__probe__.ts')]: `
        declare module './master-data.js' {
          interface ContractTable {
            ghost_col: string | null;
          }
        }
        export {};
      `,
    };
    expect(await checkSchema(t.pool, { sources })).toEqual([
      {
        kind: 'column-not-in-db',
        table: 'contract',
        column: 'ghost_col',
        message: 'property contract.ghost_col has no column in the database',
      },
    ]);
  });

  it('reports a table interface without a table, declared in an in-memory entry file', async () => {
    const entry = join(SCHEMA_DIR, '__probe_entry__.ts');
    const sources = {
      [entry]: `
        import type { Generated } from 'kysely';
        import type { Database } from './index.js';
        export interface ProbeDatabase extends Database {
          ghost_table: { ghost_id: Generated<number>; label: string };
        }
      `,
    };
    expect(await checkSchema(t.pool, { sources, entry, typeName: 'ProbeDatabase' })).toEqual([
      {
        kind: 'table-not-in-db',
        table: 'ghost_table',
        message: 'Database property ghost_table has no table or view in the database',
      },
    ]);
  });

  it('refuses in-memory sources that do not compile', () => {
    const sources = { [join(SCHEMA_DIR, '__broken__.ts')]: 'export const x: number = "text";\n' };
    expect(() => readTypeSchema({ sources })).toThrow(/schema types do not compile/);
  });
});

describe('reading the Database types', () => {
  it('resolves ColumnType and Generated to the select type, with null and string literals', () => {
    const contract = types.get('contract')!;
    expect(contract.get('contract_id')).toEqual({ nullable: false, categories: ['number'], text: 'number' });
    expect(contract.get('premium')).toEqual({ nullable: false, categories: ['string'], text: 'string' });
    expect(contract.get('created_at')).toEqual({ nullable: false, categories: ['Date'], text: 'Date' });
    expect(contract.get('lapse_date')).toMatchObject({ nullable: true, categories: ['string'] });
    expect(contract.get('status')).toMatchObject({
      nullable: false,
      categories: ['string'],
      literals: ['ACTIVE', 'LAPSE', 'REVIVE', 'TERMINATE'],
    });
    expect(types.get('data_change_log')!.get('after_data')).toMatchObject({
      nullable: true,
      categories: ['unknown'],
    });
    expect(types.get('role')!.get('is_active')).toMatchObject({ nullable: false, categories: ['boolean'] });
  });
});

describe('parseInList', () => {
  it('reads the values of a varchar and of a char IN list in CHECK order', () => {
    expect(
      parseInList(
        "CHECK (((status)::text = ANY ((ARRAY['ACTIVE'::character varying, 'LEAVE'::character varying])::text[])))",
        'status',
      ),
    ).toEqual(['ACTIVE', 'LEAVE']);
    expect(parseInList("CHECK ((is_system = ANY (ARRAY['Y'::bpchar, 'N'::bpchar])))", 'is_system')).toEqual([
      'Y',
      'N',
    ]);
    expect(parseInList("CHECK ((note = ANY (ARRAY['it''s'::text, 'a, b'::text])))", 'note')).toEqual([
      "it's",
      'a, b',
    ]);
  });

  it('leaves other CHECKs alone', () => {
    expect(parseInList('CHECK ((grade_level >= 1) AND (grade_level <= 99))', 'grade_level')).toBeUndefined();
    expect(parseInList('CHECK ((horizon = ANY (ARRAY[13, 25])))', 'horizon')).toBeUndefined();
    expect(
      parseInList("CHECK (((status)::text = ANY ((ARRAY['A'::character varying])::text[])))", 'other'),
    ).toBeUndefined();
  });
});
