import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { MAPPING_DATA_TYPES, MAPPING_TARGET_TABLES } from '@csp/db';
import { defineResource, f, zDate } from '@csp/service-kit';

/**
 * company_field_mapping (spec 2.5): source field of a carrier record -> ledger field, with transform
 * rules. Versioned: a change is a new row (version + 1, effective_from), so rows parsed under an
 * older version are never rewritten; transformData applies per target field the newest version
 * valid on the first day of the settle month. Lists show the newest version per field unless
 * `asOf` (the version valid that day) or `allVersions=true` is given.
 */
export const fieldMappingResource = defineResource({
  name: 'FieldMapping',
  path: '/api/mapping/:companyCode/fields',
  table: 'company_field_mapping',
  alias: 'fm',
  menu: 'RECEIVE_MAPPING',
  tags: ['Intake: field mappings'],
  fields: {
    mappingId: f.id(),
    companyCode: f.code({ max: 20 }).filter().label('Company code'),
    targetTable: f.enum(MAPPING_TARGET_TABLES).required().filter().sort().label('Target table'),
    targetField: f.text({ max: 50 }).required().filter().sort().label('Target field'),
    sourceField: f.text({ max: 100 }).required().sort().search().label('Source field'),
    sourceColIndex: f
      .int({ min: 0, max: 16383 })
      .save()
      .describe('0-based column of the field in delivered files (pins its position)')
      .label('Column'),
    sourceLength: f
      .int({ min: 1, max: 4000 })
      .save()
      .describe(
        'FIXED profiles: the field is sourceLength bytes (of the file encoding) from byte sourceColIndex',
      )
      .label('Length'),
    dataType: f.enum(MAPPING_DATA_TYPES).save({ default: 'STRING' }).label('Data type'),
    transformRule: f
      .text({ max: 500 })
      .save()
      .describe('TRIM|UPPER, DIVIDE:100, DATE:yyyyMMdd, CODE_MAP:<type>')
      .label('Transform rule'),
    defaultValue: f.text({ max: 200 }).save().label('Default value'),
    isRequired: f.bool().save({ default: false }).label('Required'),
    sortOrder: f.int({ min: 0, max: 9999 }).save({ default: 0 }).sort().label('Order'),
    version: f.int().sort().nullable(false).label('Version'),
    effectiveFrom: f
      .date()
      .save()
      .sort()
      .filter('range')
      .describe('default: 2000-01-01 for a first version, today for a new one')
      .label('Effective from'),
    isActive: f.bool().filter().label('Active'),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  defaultSort: 'sortOrder',
  filters: {
    shape: {
      asOf: zDate.optional(),
      allVersions: z.enum(['true', 'false']).optional(),
    },
    apply: (qb, q) => {
      if (q.allVersions === 'true') return qb;
      const asOf = q.asOf;
      const newer = sql<SqlBool>`not exists (select 1 from company_field_mapping n
        where n.company_code = fm.company_code and n.target_table = fm.target_table
          and n.target_field = fm.target_field and n.version > fm.version
          ${asOf ? sql`and n.effective_from <= ${asOf}::date` : sql``})`;
      return asOf ? qb.where(newer).where(sql<SqlBool>`fm.effective_from <= ${asOf}::date`) : qb.where(newer);
    },
  },
  create: false,
  update: false,
  delete: false,
  export: false,
});

/** code_mapping (spec 2.5): carrier code -> our code, for CODE_MAP:<code type>. */
export const codeMappingResource = defineResource({
  name: 'CodeMapping',
  path: '/api/mapping/:companyCode/codes',
  table: 'code_mapping',
  alias: 'cm',
  menu: 'RECEIVE_MAPPING',
  tags: ['Intake: code mappings'],
  fields: {
    codeId: f.id(),
    companyCode: f.code({ max: 20 }).filter().label('Company code'),
    codeType: f.code({ max: 30 }).required().filter().sort().search().label('Code type'),
    sourceCode: f.text({ max: 50 }).required().sort().search().label('Carrier code'),
    sourceName: f.text({ max: 200 }).save().search().label('Carrier label'),
    targetCode: f.text({ max: 50 }).required().sort().search().label('Our code'),
    targetName: f.text({ max: 200 }).save().label('Our label'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  defaultSort: 'codeType',
  export: false,
});
