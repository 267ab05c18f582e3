import { sql } from 'kysely';
import { YN_VALUES } from '@csp/db';
import { defineResource, f, invalid } from '@csp/service-kit';
import { optionalText } from '../common/fields.js';

export const DICT_MENU = 'SYSTEM_DATA_DICT';

const identifier = () => f.text({ max: 100, pattern: /^[a-z_][a-z0-9_]{0,99}$/, patternMessage: 'must be a lower-case SQL identifier' });

/** Dictionary rows document real columns: the (table, column) must exist, and so must the domain. */
export const dataDictionaryResource = defineResource({
  name: 'DataDictionary',
  path: '/api/data-dictionary',
  table: 'data_dictionary',
  alias: 'dd',
  menu: DICT_MENU,
  tags: ['data-dictionary'],
  fields: {
    dictId: f.id(),
    tableName: identifier().required().sort().search().filter(),
    columnName: identifier().required().sort().search().filter('like'),
    domainCode: optionalText(50).sort().filter(),
    domainName: f.joined('dom.domain_name', 'text'),
    columnLabel: optionalText(200).search(),
    isPk: f.enum(YN_VALUES).save({ default: 'N' }),
    isFk: f.enum(YN_VALUES).save({ default: 'N' }),
    fkReference: optionalText(200),
    businessRule: optionalText(1000),
    sampleValue: optionalText(200),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  baseQuery: (db) => db.selectFrom('data_dictionary as dd').leftJoin('data_domain as dom', 'dom.domain_code', 'dd.domain_code'),
  defaultSort: 'dictId',
  validate: async (body, ctx) => {
    const column = await sql<{ n: number }>`
      select count(*)::int as n from v_data_dictionary_full
      where table_name = ${body.tableName} and column_name = ${body.columnName}`.execute(ctx.trx);
    if (!column.rows[0]?.n) throw invalid('columnName', `${body.tableName}.${body.columnName} is not a column of the schema`);
    if (body.domainCode) {
      const domain = await sql<{ n: number }>`select count(*)::int as n from data_domain where domain_code = ${body.domainCode}`.execute(ctx.trx);
      if (!domain.rows[0]?.n) throw invalid('domainCode', `data domain ${body.domainCode} does not exist`);
    }
  },
});
