import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

describe('v_data_dictionary_full', () => {
  it('lists every column of users in column order, including columns without a dictionary row', async () => {
    const catalog = await t.pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = 'users' ORDER BY ordinal_position`,
    );
    const rows = await t.db
      .selectFrom('v_data_dictionary_full')
      .selectAll()
      .where('table_name', '=', 'users')
      .orderBy('ordinal_position')
      .execute();

    expect(rows.map((r) => r.column_name)).toEqual(catalog.rows.map((r) => r.column_name));
    expect(rows).toHaveLength(15);
    const byName = Object.fromEntries(rows.map((r) => [r.column_name, r]));
    expect(byName.password_changed_at).toMatchObject({
      dict_id: null,
      column_label: null,
      domain_code: null,
      domain_name: null,
      data_type: 'timestamptz',
      is_nullable: 'Y',
      is_pk: 'N',
    });
    expect(byName.user_id).toMatchObject({
      is_pk: 'Y',
      data_type: 'bigint',
      is_nullable: 'N',
      domain_code: 'ID',
      category: 'IDENTIFIER',
    });
    expect(byName.login_id).toMatchObject({
      data_type: 'varchar(50)',
      column_label: 'Login id',
      domain_code: 'LOGIN_ID',
    });
    expect(byName.phone).toMatchObject({
      domain_code: 'PHONE',
      category: 'PII',
      masking_type: 'PHONE',
      encrypted: 'N',
    });
    expect(byName.status).toMatchObject({
      column_default: "'ACTIVE'::character varying",
      data_type: 'varchar(20)',
    });
    expect(byName.user_id!.dict_id).toEqual(expect.any(Number));
    expect(byName.user_id!.table_comment).toBe('Login users (BCrypt passwords)');
  });

  it('reports foreign keys from the dictionary and from real constraints', async () => {
    const rows = await t.db
      .selectFrom('v_data_dictionary_full')
      .select(['table_name', 'column_name', 'is_fk', 'fk_reference'])
      .where((eb) =>
        eb.or([
          eb.and([eb('table_name', '=', 'user_role'), eb('column_name', '=', 'role_id')]),
          eb.and([eb('table_name', '=', 'menu_permission'), eb('column_name', '=', 'menu_id')]),
          eb.and([eb('table_name', '=', 'common_code'), eb('column_name', '=', 'code_name')]),
        ]),
      )
      .orderBy('table_name')
      .execute();
    expect(rows).toEqual([
      { table_name: 'common_code', column_name: 'code_name', is_fk: 'N', fk_reference: null },
      { table_name: 'menu_permission', column_name: 'menu_id', is_fk: 'Y', fk_reference: 'menu.menu_id' },
      { table_name: 'user_role', column_name: 'role_id', is_fk: 'Y', fk_reference: 'role.role_id' },
    ]);
  });

  it('covers every base table of schema public except schema_migration, including tables created later', async () => {
    await t.pool.query(`
      CREATE TABLE zz_later (zz_id bigserial PRIMARY KEY, amount numeric(15,2) NOT NULL, rate numeric(7,4), note varchar(50));
      COMMENT ON TABLE zz_later IS 'created after the view';
      COMMENT ON COLUMN zz_later.amount IS 'money'`);

    const tables = await t.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables t
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migration'
          -- month partitions (V130) are described by their partitioned table
          AND NOT (SELECT relispartition FROM pg_class WHERE oid = format('public.%I', t.table_name)::regclass)
        ORDER BY 1`,
    );
    const viewTables = await t.pool.query<{ table_name: string }>(
      'SELECT DISTINCT table_name FROM v_data_dictionary_full ORDER BY 1',
    );
    expect(viewTables.rows).toEqual(tables.rows);
    expect(viewTables.rows.map((r) => r.table_name)).not.toContain('schema_migration');

    const later = await t.db
      .selectFrom('v_data_dictionary_full')
      .select([
        'column_name',
        'data_type',
        'is_nullable',
        'is_pk',
        'table_comment',
        'column_comment',
        'dict_id',
      ])
      .where('table_name', '=', 'zz_later')
      .orderBy('ordinal_position')
      .execute();
    expect(later).toEqual([
      {
        column_name: 'zz_id',
        data_type: 'bigint',
        is_nullable: 'N',
        is_pk: 'Y',
        table_comment: 'created after the view',
        column_comment: null,
        dict_id: null,
      },
      {
        column_name: 'amount',
        data_type: 'numeric(15,2)',
        is_nullable: 'N',
        is_pk: 'N',
        table_comment: 'created after the view',
        column_comment: 'money',
        dict_id: null,
      },
      {
        column_name: 'rate',
        data_type: 'numeric(7,4)',
        is_nullable: 'Y',
        is_pk: 'N',
        table_comment: 'created after the view',
        column_comment: null,
        dict_id: null,
      },
      {
        column_name: 'note',
        data_type: 'varchar(50)',
        is_nullable: 'Y',
        is_pk: 'N',
        table_comment: 'created after the view',
        column_comment: null,
        dict_id: null,
      },
    ]);
  });
});
