import type { Kysely } from 'kysely';
import type { Database, UploadTargetTable } from '@csp/db';
import { AppError, invalid, notFound } from '@csp/service-kit';
import { columnIndex } from '../parsing/columns.js';
import { RuleSyntaxError } from '../transform/rules.js';
import type { CodeMapper, ColumnPlan } from './row-converter.js';
import { IMPORT_TARGETS, isTargetTable, notAllowedMessage, type ImportTarget } from './targets/index.js';
import { compileColumnRule } from './template-rules.js';

export interface TemplatePlan {
  templateId: number;
  templateCode: string;
  targetTable: UploadTargetTable;
  target: ImportTarget<unknown, unknown>;
  companyCode: string | null;
  sheetIndex: number;
  headerRow: number;
  dataStartRow: number;
  columns: ColumnPlan[];
}

/** The template of an import with its columns compiled; refuses what cannot run. */
export async function loadTemplatePlan(db: Kysely<Database>, templateCode: string): Promise<TemplatePlan> {
  const template = await db
    .selectFrom('upload_template')
    .selectAll()
    .where('template_code', '=', templateCode)
    .executeTakeFirst();
  if (!template) throw notFound(`Upload template ${templateCode}`);
  if (!template.is_active) throw new AppError('BAD_REQUEST', `upload template ${templateCode} is inactive`);
  if (!isTargetTable(template.target_table))
    throw invalid('targetTable', notAllowedMessage(template.target_table));
  const target = IMPORT_TARGETS[template.target_table];
  const rows = await db
    .selectFrom('upload_template_column')
    .selectAll()
    .where('template_id', '=', template.template_id)
    .orderBy('sort_order')
    .orderBy('column_id')
    .execute();
  if (rows.length === 0) throw invalid('templateCode', `upload template ${templateCode} has no columns`);

  const fields = new Set(target.fields.map((f) => f.field));
  const columns: ColumnPlan[] = rows.map((c) => {
    if (!fields.has(c.target_field)) {
      throw invalid(
        'templateCode',
        `column ${c.source_column} maps to ${c.target_field}, which ${template.target_table} does not have`,
      );
    }
    let rule;
    try {
      rule = compileColumnRule(c.transform_rule, c.transform_args);
    } catch (err) {
      if (err instanceof RuleSyntaxError)
        throw invalid('templateCode', `column ${c.source_column}: ${err.message}`);
      throw err;
    }
    return {
      sourceColumn: c.source_column,
      index: columnIndex(c.source_column)!,
      sourceHeader: c.source_header,
      targetField: c.target_field,
      targetType: c.target_type,
      isRequired: c.is_required,
      defaultValue: c.default_value,
      ruleArgs: c.transform_args,
      rule,
    };
  });
  const mapped = new Set(columns.map((c) => c.targetField));
  const unmapped = target.fields.filter((f) => f.required && !mapped.has(f.field)).map((f) => f.field);
  if (unmapped.length) {
    throw invalid(
      'templateCode',
      `upload template ${templateCode} maps no column to the required field(s) ${unmapped.join(', ')}`,
    );
  }
  return {
    templateId: template.template_id,
    templateCode,
    targetTable: template.target_table,
    target,
    companyCode: template.company_code,
    sheetIndex: template.sheet_index,
    headerRow: template.header_row,
    dataStartRow: template.data_start_row,
    columns,
  };
}

/**
 * CODE_MAP of a template: the carrier's code_mapping when the template has a carrier, else the
 * active common codes of the group (matched by code, Korean name or English name, in that order of
 * precedence: carriers' sheets use either language since V110 made code_name Korean). Loaded once per import.
 */
export async function codeMapperFor(db: Kysely<Database>, plan: TemplatePlan): Promise<CodeMapper> {
  const types = new Set<string>();
  for (const c of plan.columns) {
    if (c.rule.rule === 'CODE_MAP' && c.ruleArgs) types.add(c.ruleArgs.trim());
  }
  const map = new Map<string, string>();
  const key = (type: string, value: string) => `${type}\u0000${value}`;
  if (types.size > 0) {
    if (plan.companyCode !== null) {
      const rows = await db
        .selectFrom('code_mapping')
        .select(['code_type', 'source_code', 'target_code'])
        .where('company_code', '=', plan.companyCode)
        .where('code_type', 'in', [...types])
        .where('is_active', '=', true)
        .execute();
      for (const r of rows) map.set(key(r.code_type, r.source_code), r.target_code);
    } else {
      const rows = await db
        .selectFrom('common_code')
        .select(['group_code', 'code', 'code_name', 'code_name_en'])
        .where('group_code', 'in', [...types])
        .where('is_active', '=', true)
        .execute();
      for (const r of rows) map.set(key(r.group_code, r.code), r.code);
      for (const name of ['code_name', 'code_name_en'] as const) {
        for (const r of rows) {
          const value = r[name];
          if (value && !map.has(key(r.group_code, value))) map.set(key(r.group_code, value), r.code);
        }
      }
    }
  }
  return (type, value) => map.get(key(type, value));
}
