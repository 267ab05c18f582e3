import { sql, type Kysely } from 'kysely';
import { TRANSFORM_RULES, UPLOAD_STATUSES, UPLOAD_TARGET_TYPES, type Database } from '@csp/db';
import { defineResource, f, invalid } from '@csp/service-kit';
import { IMPORT_TARGETS, isTargetTable, notAllowedMessage } from '../upload/targets/index.js';
import { validateColumn, type ColumnBody } from './upload-templates.service.js';

/**
 * upload_template (spec 2.5, 4.3): spreadsheet import templates. The target table must be one of
 * the nine whitelisted tables; anything else is refused with the spec 7 rule 10 message.
 */
export const uploadTemplateResource = defineResource({
  name: 'UploadTemplate',
  path: '/api/upload-templates',
  table: 'upload_template',
  alias: 'ut',
  menu: 'SYSTEM_UPLOAD_TEMPLATE',
  tags: ['Upload templates'],
  fields: {
    templateId: f.id(),
    templateCode: f.code({ max: 50 }).required().sort().search().filter().label('Template code'),
    templateName: f.text({ max: 200 }).required().sort().search().label('Template name'),
    category: f.code({ max: 30 }).required().filter().sort().label('Category'),
    companyCode: f.code({ max: 20 }).save().filter().label('Company code'),
    targetTable: f.text({ max: 30 }).required().filter().sort().label('Target table'),
    sheetIndex: f.int({ min: 0, max: 255 }).save({ default: 0 }).label('Sheet (0-based)'),
    headerRow: f
      .int({ min: 0, max: 1000 })
      .save({ default: 1 })
      .describe('0 = no header row')
      .label('Header row'),
    dataStartRow: f.int({ min: 1, max: 1_000_000 }).save({ default: 2 }).label('First data row'),
    description: f.text({ max: 1000 }).save().label('Description'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    columnCount: f
      .computed(
        sql`(select count(*)::int from upload_template_column c where c.template_id = ut.template_id)`,
        'int',
      )
      .label('Columns'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  defaultSort: 'templateCode',
  validate: async (body, ctx, existing) => {
    const table = String(body.targetTable);
    if (!isTargetTable(table)) throw invalid('targetTable', notAllowedMessage(table));
    if (body.headerRow >= body.dataStartRow) throw invalid('dataStartRow', 'must be after headerRow');
    if (body.companyCode) {
      const company = await ctx.trx
        .selectFrom('insurance_company')
        .select('company_code')
        .where('company_code', '=', body.companyCode)
        .executeTakeFirst();
      if (!company)
        throw invalid('companyCode', `insurance company ${String(body.companyCode)} does not exist`);
    }
    if (existing && existing.target_table !== table) {
      const fields = new Set(IMPORT_TARGETS[table].fields.map((x) => x.field));
      const columns = await ctx.trx
        .selectFrom('upload_template_column')
        .select('target_field')
        .where('template_id', '=', existing.template_id)
        .execute();
      const stray = columns
        .map((c: { target_field: string }) => c.target_field)
        .filter((x: string) => !fields.has(x));
      if (stray.length)
        throw invalid(
          'targetTable',
          `${table} has no field(s) ${stray.join(', ')} that columns of this template map to`,
        );
    }
  },
});

/** upload_template_column: spreadsheet column -> target field, with one transform rule and its arguments. */
export const templateColumnResource = defineResource({
  name: 'UploadTemplateColumn',
  path: '/api/upload-templates/:templateId/columns',
  table: 'upload_template_column',
  alias: 'tc',
  menu: 'SYSTEM_UPLOAD_TEMPLATE',
  tags: ['Upload templates'],
  fields: {
    columnId: f.id(),
    templateId: f.ref().filter().label('Template'),
    sourceColumn: f
      .text({ max: 3, pattern: /^[A-Z]{1,3}$/, patternMessage: 'must be a column letter (A, B, ..., AA)' })
      .required()
      .sort()
      .label('Column'),
    sourceHeader: f
      .text({ max: 200 })
      .save()
      .describe('expected header text; a file with another header there is refused')
      .label('Header'),
    targetField: f.text({ max: 50 }).required().sort().label('Target field'),
    targetType: f.enum(UPLOAD_TARGET_TYPES).save().describe("default: the target field's type").label('Type'),
    isRequired: f.bool().save({ default: false }).label('Required'),
    transformRule: f.enum(TRANSFORM_RULES).save().label('Transform rule'),
    transformArgs: f.text({ max: 500 }).save().label('Rule arguments'),
    defaultValue: f.text({ max: 200 }).save().label('Default value'),
    sortOrder: f.int({ min: 0, max: 9999 }).save({ default: 0 }).sort().label('Order'),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  defaultSort: 'sortOrder',
  export: false,
  beforeWrite: async (values, body, ctx) => {
    const templateId = Number((ctx.request.params as { templateId: number }).templateId);
    return {
      ...values,
      target_type: await validateColumn(ctx.trx as Kysely<Database>, templateId, body as ColumnBody),
    };
  },
});

/** upload_history: one row per import with counts, progress, error file (read-only). */
export const uploadHistoryResource = defineResource({
  name: 'UploadHistory',
  path: '/api/upload-templates/:templateId/history',
  table: 'upload_history',
  alias: 'uh',
  menu: 'SYSTEM_UPLOAD_TEMPLATE',
  tags: ['Upload templates'],
  fields: {
    historyId: f.id(),
    templateId: f.ref().filter().label('Template'),
    templateCode: f.text().filter().label('Template code'),
    targetTable: f.text().label('Target table'),
    fileName: f.text().search().label('File'),
    fileId: f.ref().label('Stored upload'),
    status: f.enum(UPLOAD_STATUSES).filter().label('Status'),
    totalCount: f.int().label('Rows read'),
    processedCount: f.int().label('Rows processed'),
    estimatedTotal: f.int().label('Rows expected'),
    successCount: f.int().label('Imported'),
    errorCount: f.int().label('Rejected'),
    errorFileId: f.ref().label('Error file'),
    errorMessage: f.text().label('Failure'),
    errorSample: f.json().export(false).label('First rejected rows'),
    startedAt: f.timestamp().sort().label('Started'),
    endedAt: f.timestamp().label('Ended'),
    createdBy: f.int().label('By'),
  },
  defaultSort: '-historyId',
  statusField: 'status',
  dateFilter: 'startedAt',
  create: false,
  update: false,
  delete: false,
  export: false,
});
