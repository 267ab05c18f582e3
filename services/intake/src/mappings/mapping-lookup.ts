import type { MappingTargetTable } from '@csp/db';
import type { IntakeDb } from '../db.js';

/** The applicable field mapping of one target field (newest version valid on a day, active). */
export interface ActiveMapping {
  mappingId: number;
  targetTable: MappingTargetTable;
  targetField: string;
  sourceField: string;
  sourceColIndex: number | null;
  /** FIXED profiles: bytes of the field from sourceColIndex */
  sourceLength: number | null;
  isRequired: boolean;
  version: number;
}

/**
 * The mappings transformData would use for a month starting on `day`: per (target table, target
 * field) the newest version with effective_from <= day, kept only when that row is active (the
 * same rule as src/batch/mappings.ts).
 */
export async function activeMappings(
  db: IntakeDb,
  companyCode: string,
  day: string,
  tables: readonly MappingTargetTable[] = ['recruit_ledger', 'maintain_ledger'],
): Promise<ActiveMapping[]> {
  const rows = await db
    .selectFrom('company_field_mapping')
    .distinctOn(['target_table', 'target_field'])
    .select([
      'mapping_id',
      'target_table',
      'target_field',
      'source_field',
      'source_col_index',
      'source_length',
      'is_required',
      'is_active',
      'version',
    ])
    .where('company_code', '=', companyCode)
    .where('target_table', 'in', [...tables])
    .where('effective_from', '<=', day)
    .orderBy('target_table')
    .orderBy('target_field')
    .orderBy('version', 'desc')
    .orderBy('effective_from', 'desc')
    .execute();
  return rows
    .filter((r) => r.is_active)
    .map((r) => ({
      mappingId: r.mapping_id,
      targetTable: r.target_table,
      targetField: r.target_field,
      sourceField: r.source_field,
      sourceColIndex: r.source_col_index,
      sourceLength: r.source_length,
      isRequired: r.is_required,
      version: r.version,
    }));
}
