import { defineResource, invalid, isoTimestamp } from '@csp/service-kit';
import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { zOptionalText, zYN } from '../common/schemas.js';

export const DICT_MENU = 'SYSTEM_DATA_DICT';

const dictResp = z.object({
  dictId: z.number(),
  tableName: z.string(),
  columnName: z.string(),
  domainCode: z.string().nullable(),
  domainName: z.string().nullable(),
  columnLabel: z.string().nullable(),
  isPk: zYN,
  isFk: zYN,
  fkReference: z.string().nullable(),
  businessRule: z.string().nullable(),
  sampleValue: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const zIdentifier = z
  .string()
  .trim()
  .regex(/^[a-z_][a-z0-9_]{0,99}$/, 'must be a lower-case SQL identifier');

const dictSave = z.object({
  tableName: zIdentifier,
  columnName: zIdentifier,
  domainCode: zOptionalText(50),
  columnLabel: zOptionalText(200),
  isPk: zYN.optional(),
  isFk: zYN.optional(),
  fkReference: zOptionalText(200),
  businessRule: zOptionalText(1000),
  sampleValue: zOptionalText(200),
});

type DictRow = {
  dict_id: number;
  table_name: string;
  column_name: string;
  domain_code: string | null;
  domain_name: string | null;
  column_label: string | null;
  is_pk: 'Y' | 'N';
  is_fk: 'Y' | 'N';
  fk_reference: string | null;
  business_rule: string | null;
  sample_value: string | null;
  created_at: Date;
  updated_at: Date;
};

/** The writable columns of a dictionary row, defaults applied (insert and update alike). */
function dictionaryColumns(b: z.infer<typeof dictSave>) {
  return {
    table_name: b.tableName,
    column_name: b.columnName,
    domain_code: b.domainCode ?? null,
    column_label: b.columnLabel ?? null,
    is_pk: b.isPk ?? 'N',
    is_fk: b.isFk ?? 'N',
    fk_reference: b.fkReference ?? null,
    business_rule: b.businessRule ?? null,
    sample_value: b.sampleValue ?? null,
  };
}

function escapeLike(v: string): string {
  return v.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Dictionary rows document real columns: the (table, column) must exist, and so must the domain. */
export const dataDictionaryResource = defineResource({
  name: 'DataDictionary',
  basePath: '/api/data-dictionary',
  table: 'data_dictionary',
  idColumn: 'dd.dict_id',
  menu: DICT_MENU,
  tags: ['data-dictionary'],
  columns: [
    'dd.dict_id',
    'dd.table_name',
    'dd.column_name',
    'dd.domain_code',
    'dom.domain_name',
    'dd.column_label',
    'dd.is_pk',
    'dd.is_fk',
    'dd.fk_reference',
    'dd.business_rule',
    'dd.sample_value',
    'dd.created_at',
    'dd.updated_at',
  ],
  baseQuery: (db) =>
    db
      .selectFrom('data_dictionary as dd')
      .leftJoin('data_domain as dom', 'dom.domain_code', 'dd.domain_code'),
  respSchema: dictResp,
  toResp: (r: DictRow) => ({
    dictId: r.dict_id,
    tableName: r.table_name,
    columnName: r.column_name,
    domainCode: r.domain_code,
    domainName: r.domain_name,
    columnLabel: r.column_label,
    isPk: r.is_pk,
    isFk: r.is_fk,
    fkReference: r.fk_reference,
    businessRule: r.business_rule,
    sampleValue: r.sample_value,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: dictSave,
  validate: async (body, ctx) => {
    const column = await sql<{ n: number }>`
      select count(*)::int as n from v_data_dictionary_full
      where table_name = ${body.tableName} and column_name = ${body.columnName}`.execute(ctx.trx);
    if (!column.rows[0]?.n)
      throw invalid('columnName', `${body.tableName}.${body.columnName} is not a column of the schema`);
    if (body.domainCode) {
      const domain = await sql<{
        n: number;
      }>`select count(*)::int as n from data_domain where domain_code = ${body.domainCode}`.execute(ctx.trx);
      if (!domain.rows[0]?.n) throw invalid('domainCode', `data domain ${body.domainCode} does not exist`);
    }
  },
  toInsert: (b, ctx) => ({
    ...dictionaryColumns(b),
    created_by: ctx.userId,
    updated_by: ctx.userId,
  }),
  toUpdate: (b, ctx) => ({
    ...dictionaryColumns(b),
    updated_by: ctx.userId,
    updated_at: sql`now()`,
  }),
  filters: {
    shape: {
      tableName: z.string().max(100).optional(),
      columnName: z.string().max(100).optional(),
      domainCode: z.string().max(50).optional(),
    },
    apply: (qb, q) => {
      let out = qb;
      if (q.tableName) out = out.where('dd.table_name', '=', q.tableName);
      if (q.columnName)
        out = out.where(sql<SqlBool>`dd.column_name ilike ${`%${escapeLike(q.columnName)}%`}`);
      if (q.domainCode) out = out.where('dd.domain_code', '=', q.domainCode);
      return out;
    },
  },
  sortable: {
    dictId: 'dd.dict_id',
    tableName: 'dd.table_name',
    columnName: 'dd.column_name',
    domainCode: 'dd.domain_code',
  },
  defaultSort: 'dd.dict_id',
  searchable: { tableName: 'dd.table_name', columnName: 'dd.column_name', columnLabel: 'dd.column_label' },
});
