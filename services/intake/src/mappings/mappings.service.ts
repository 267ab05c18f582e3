import { sql } from 'kysely';
import type { Db, MappingTargetTable } from '@csp/db';
import { invalid, notFound } from '@csp/service-kit';
import { intakeDb } from '../db.js';
import { parseRuleChain, RuleSyntaxError } from '../transform/rules.js';
import { checkTargetValue, isTargetField, TARGET_FIELDS } from '../transform/target-fields.js';

export interface FieldMappingBody {
  targetTable: MappingTargetTable;
  targetField: string;
  sourceField: string;
  sourceColIndex?: number | null;
  sourceLength?: number | null;
  dataType: 'STRING' | 'NUMBER' | 'DATE';
  transformRule?: string | null;
  defaultValue?: string | null;
  isRequired: boolean;
  sortOrder: number;
  effectiveFrom?: string | null;
}

/** A save body (already validated by the declaration's schema) as the service takes it. */
export function fieldMappingBody(body: Record<string, unknown>): FieldMappingBody {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    targetTable: body.targetTable as MappingTargetTable,
    targetField: String(body.targetField),
    sourceField: String(body.sourceField),
    sourceColIndex:
      body.sourceColIndex === null || body.sourceColIndex === undefined ? null : Number(body.sourceColIndex),
    sourceLength:
      body.sourceLength === null || body.sourceLength === undefined ? null : Number(body.sourceLength),
    dataType: body.dataType as FieldMappingBody['dataType'],
    transformRule: text(body.transformRule),
    defaultValue: text(body.defaultValue),
    isRequired: Boolean(body.isRequired),
    sortOrder: Number(body.sortOrder ?? 0),
    effectiveFrom: text(body.effectiveFrom),
  };
}

/** The first version of a field applies to every month unless told otherwise. */
const FIRST_VERSION_FROM = '2000-01-01';

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Target field of the ledger, transform rule syntax and the default value, checked on save. */
export function validateFieldMapping(body: FieldMappingBody): void {
  if (!isTargetField(body.targetField)) {
    throw invalid(
      'targetField',
      `${body.targetTable} has no target field '${body.targetField}' (one of ${Object.keys(TARGET_FIELDS).join(', ')})`,
    );
  }
  if (body.sourceLength != null && body.sourceColIndex == null) {
    throw invalid('sourceColIndex', 'is required with sourceLength (the byte offset of a fixed-width field)');
  }
  try {
    parseRuleChain(body.transformRule);
  } catch (err) {
    if (err instanceof RuleSyntaxError) throw invalid('transformRule', err.message);
    throw err;
  }
  if (body.defaultValue !== null && body.defaultValue !== undefined && body.targetField !== 'settle_month') {
    const checked = checkTargetValue(body.targetField, body.defaultValue, '');
    if (!checked.ok) throw invalid('defaultValue', checked.message);
  }
}

export interface SavedVersion {
  id: number;
  version: number;
  before: Record<string, unknown> | undefined;
  after: Record<string, unknown>;
}

async function newest(trx: Db, companyCode: string, table: MappingTargetTable, field: string) {
  return intakeDb(trx)
    .selectFrom('company_field_mapping')
    .selectAll()
    .where('company_code', '=', companyCode)
    .where('target_table', '=', table)
    .where('target_field', '=', field)
    .orderBy('version', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Saves a mapping as a new version of its (carrier, target table, target field): version = newest +
 * 1, effective from the given day (default: 2000-01-01 for a first version, today otherwise), which
 * may not precede the newest version's. Earlier versions stay as they are.
 */
export async function saveFieldMappingVersion(
  db: Db,
  companyCode: string,
  body: FieldMappingBody,
  userId: number | null,
  isActive = true,
): Promise<SavedVersion> {
  validateFieldMapping(body);
  return db.transaction().execute(async (trx) => {
    // serialises concurrent revisions of one field
    await sql`select pg_advisory_xact_lock(74012, hashtext(${`${companyCode}/${body.targetTable}/${body.targetField}`}))`.execute(
      trx,
    );
    const current = await newest(trx, companyCode, body.targetTable, body.targetField);
    const effectiveFrom = body.effectiveFrom ?? (current ? today() : FIRST_VERSION_FROM);
    if (current && effectiveFrom < current.effective_from) {
      throw invalid(
        'effectiveFrom',
        `must not be before ${current.effective_from}, the effectiveFrom of version ${current.version}`,
      );
    }
    const after = await intakeDb(trx)
      .insertInto('company_field_mapping')
      .values({
        company_code: companyCode,
        source_field: body.sourceField,
        source_col_index: body.sourceColIndex ?? null,
        source_length: body.sourceLength ?? null,
        target_table: body.targetTable,
        target_field: body.targetField,
        data_type: body.dataType,
        transform_rule: body.transformRule ?? null,
        default_value: body.defaultValue ?? null,
        is_required: body.isRequired,
        sort_order: body.sortOrder,
        version: (current?.version ?? 0) + 1,
        effective_from: effectiveFrom,
        is_active: isActive,
        created_by: userId,
        updated_by: userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { id: after.mapping_id, version: after.version, before: current, after };
  });
}

/** The mapping row of the carrier (E404 otherwise). */
export async function findFieldMapping(db: Db, companyCode: string, mappingId: number) {
  const row = await intakeDb(db)
    .selectFrom('company_field_mapping')
    .selectAll()
    .where('mapping_id', '=', mappingId)
    .where('company_code', '=', companyCode)
    .executeTakeFirst();
  if (!row) throw notFound(`FieldMapping ${mappingId}`);
  return row;
}

/** DELETE: the field stops being mapped from `effectiveFrom` (an inactive newest version). */
export async function endFieldMapping(
  db: Db,
  companyCode: string,
  mappingId: number,
  effectiveFrom: string | undefined,
  userId: number | null,
): Promise<SavedVersion> {
  const row = await findFieldMapping(db, companyCode, mappingId);
  return saveFieldMappingVersion(
    db,
    companyCode,
    {
      targetTable: row.target_table,
      targetField: row.target_field,
      sourceField: row.source_field,
      sourceColIndex: row.source_col_index,
      sourceLength: row.source_length,
      dataType: row.data_type,
      transformRule: row.transform_rule,
      defaultValue: row.default_value,
      isRequired: row.is_required,
      sortOrder: row.sort_order,
      effectiveFrom: effectiveFrom ?? today(),
    },
    userId,
    false,
  );
}
