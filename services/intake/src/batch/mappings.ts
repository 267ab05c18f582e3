import type { FieldMapping, LedgerTable } from '../transform/record-mapper.js';
import type { TransformContext } from '../transform/rules.js';
import type { IntakeDb } from '../db.js';

/** DATE without an argument and no company profile: ISO dates. */
export const DEFAULT_DATE_FORMAT = 'yyyy-MM-dd';

/** Everything transformData needs to know about one carrier for one settle month. */
export interface CompanyRules {
  mappingsOf(table: LedgerTable): readonly FieldMapping[];
  context: TransformContext;
}

const NO_MAPPINGS: readonly FieldMapping[] = Object.freeze([]);

/**
 * Loads field mappings, code mappings and the date format of the given carriers. Per (carrier,
 * target table, target field) the newest version with effective_from <= the month's first day
 * applies, and only when that row is active (deactivating the newest revision unmaps the field).
 */
export async function loadCompanyRules(
  db: IntakeDb,
  companyCodes: readonly string[],
  monthStart: string,
): Promise<Map<string, CompanyRules>> {
  const result = new Map<string, CompanyRules>();
  if (companyCodes.length === 0) return result;
  const codes = [...companyCodes];

  // Sequential on purpose: `db` is usually the chunk's transaction (one connection).
  const mappingRows = await db
    .selectFrom('company_field_mapping')
    .distinctOn(['company_code', 'target_table', 'target_field'])
    .select([
      'company_code',
      'target_table',
      'target_field',
      'source_field',
      'transform_rule',
      'default_value',
      'is_required',
      'sort_order',
      'is_active',
    ])
    .where('company_code', 'in', codes)
    .where('effective_from', '<=', monthStart)
    .orderBy('company_code')
    .orderBy('target_table')
    .orderBy('target_field')
    .orderBy('version', 'desc')
    .orderBy('effective_from', 'desc')
    .execute();
  const codeRows = await db
    .selectFrom('code_mapping')
    .select(['company_code', 'code_type', 'source_code', 'target_code'])
    .where('company_code', 'in', codes)
    .where('is_active', '=', true)
    .execute();
  const profiles = await db
    .selectFrom('company_profile')
    .select(['company_code', 'date_format'])
    .where('company_code', 'in', codes)
    .execute();

  const mappings = new Map<string, Map<LedgerTable, FieldMapping[]>>();
  for (const row of mappingRows) {
    if (!row.is_active) continue;
    let byTable = mappings.get(row.company_code);
    if (!byTable) mappings.set(row.company_code, (byTable = new Map()));
    let list = byTable.get(row.target_table);
    if (!list) byTable.set(row.target_table, (list = []));
    list.push({
      sourceField: row.source_field,
      targetField: row.target_field,
      transformRule: row.transform_rule,
      defaultValue: row.default_value,
      isRequired: row.is_required,
      sortOrder: row.sort_order,
    });
  }
  const codeMaps = new Map<string, Map<string, string>>();
  for (const row of codeRows) {
    let map = codeMaps.get(row.company_code);
    if (!map) codeMaps.set(row.company_code, (map = new Map()));
    map.set(codeKey(row.code_type, row.source_code), row.target_code);
  }
  const dateFormats = new Map(profiles.map((p) => [p.company_code, p.date_format]));

  for (const code of codes) {
    const byTable = mappings.get(code);
    const codeMap = codeMaps.get(code);
    result.set(code, {
      mappingsOf: (table) => byTable?.get(table) ?? NO_MAPPINGS,
      context: {
        defaultDateFormat: dateFormats.get(code) ?? DEFAULT_DATE_FORMAT,
        codeMap: (codeType, sourceCode) => codeMap?.get(codeKey(codeType, sourceCode)),
      },
    });
  }
  return result;
}

function codeKey(codeType: string, sourceCode: string): string {
  return `${codeType}\u0000${sourceCode}`;
}
