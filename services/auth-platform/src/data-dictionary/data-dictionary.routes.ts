import { z } from 'zod';
import { YN_VALUES } from '@csp/db';
import { envelope, ok, perm, registerResource, type ServiceApp } from '@csp/service-kit';
import { DataDictionaryRepository, type FullRow } from './data-dictionary.repository.js';
import { DICT_MENU, dataDictionaryResource } from './data-dictionary.resource.js';

const tags = dataDictionaryResource.tags;
const zYN = z.enum(YN_VALUES);

const fullResp = z.object({
  tableName: z.string(),
  columnName: z.string(),
  ordinalPosition: z.number(),
  dataType: z.string(),
  isNullable: zYN,
  columnDefault: z.string().nullable(),
  tableComment: z.string().nullable(),
  columnComment: z.string().nullable(),
  isPk: zYN,
  dictId: z.number().nullable(),
  columnLabel: z.string().nullable(),
  domainCode: z.string().nullable(),
  isFk: zYN,
  fkReference: z.string().nullable(),
  businessRule: z.string().nullable(),
  sampleValue: z.string().nullable(),
  domainName: z.string().nullable(),
  category: z.string().nullable(),
  maskingType: z.string().nullable(),
  encrypted: zYN.nullable(),
});

function toFullResp(r: FullRow): z.input<typeof fullResp> {
  return {
    tableName: r.table_name,
    columnName: r.column_name,
    ordinalPosition: Number(r.ordinal_position),
    dataType: r.data_type,
    isNullable: r.is_nullable,
    columnDefault: r.column_default,
    tableComment: r.table_comment,
    columnComment: r.column_comment,
    isPk: r.is_pk,
    dictId: r.dict_id,
    columnLabel: r.column_label,
    domainCode: r.domain_code,
    isFk: r.is_fk,
    fkReference: r.fk_reference,
    businessRule: r.business_rule,
    sampleValue: r.sample_value,
    domainName: r.domain_name,
    category: r.category,
    maskingType: r.masking_type,
    encrypted: r.encrypted,
  };
}

export async function dataDictionaryRoutes(app: ServiceApp): Promise<void> {
  const repo = new DataDictionaryRepository(app.db);

  app.get(
    '/api/data-dictionary/tables',
    { config: perm(DICT_MENU, 'READ'), schema: { tags, summary: 'Names of all tables of the schema', response: { 200: envelope(z.array(z.string())) } } },
    async () => ok(await repo.tableNames()),
  );

  app.get(
    '/api/data-dictionary/full',
    {
      config: perm(DICT_MENU, 'READ'),
      schema: {
        tags,
        summary: 'Every column (of a table) with its dictionary row and domain; undocumented columns included',
        querystring: z.object({ tableName: z.string().max(100).optional() }),
        response: { 200: envelope(z.array(fullResp)) },
      },
    },
    async (request) => ok((await repo.full(request.query.tableName)).map(toFullResp)),
  );

  registerResource(app, dataDictionaryResource);
}
