import type { Kysely } from 'kysely';
import type { Database, UploadTargetType, UploadTransformRule } from '@csp/db';
import { invalid, notFound } from '@csp/service-kit';
import { RuleSyntaxError } from '../transform/rules.js';
import { IMPORT_TARGETS, isTargetTable, notAllowedMessage } from '../upload/targets/index.js';
import { compileColumnRule } from '../upload/template-rules.js';

export interface ColumnBody {
  sourceColumn: string;
  targetField: string;
  targetType?: UploadTargetType | null;
  transformRule?: UploadTransformRule | null;
  transformArgs?: string | null;
}

/** The target table of a template (E404 when the template does not exist). */
export async function templateTarget(db: Kysely<Database>, templateId: number) {
  const template = await db
    .selectFrom('upload_template')
    .select(['template_id', 'target_table'])
    .where('template_id', '=', templateId)
    .executeTakeFirst();
  if (!template) throw notFound(`UploadTemplate ${templateId}`);
  if (!isTargetTable(template.target_table))
    throw invalid('targetTable', notAllowedMessage(template.target_table));
  return IMPORT_TARGETS[template.target_table];
}

/**
 * A column must name a field of the template's target table, and its rule and arguments must
 * compile; returns the column's type (the field's own type when none is given).
 */
export async function validateColumn(
  db: Kysely<Database>,
  templateId: number,
  body: ColumnBody,
  path = '',
): Promise<UploadTargetType> {
  const target = await templateTarget(db, templateId);
  const field = target.fields.find((x) => x.field === body.targetField);
  if (!field) {
    throw invalid(
      `${path}targetField`,
      `${target.table} has no field '${body.targetField}' (fields: ${target.fields.map((x) => x.field).join(', ')})`,
    );
  }
  try {
    compileColumnRule(body.transformRule ?? null, body.transformArgs ?? null);
  } catch (err) {
    if (err instanceof RuleSyntaxError) throw invalid(`${path}transformArgs`, err.message);
    throw err;
  }
  return body.targetType ?? field.type;
}
