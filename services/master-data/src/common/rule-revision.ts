import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { AppError, invalid, notFound, zDate } from '@csp/service-kit';
import type { Db } from '@csp/db';

/** A revisable rule table (half-open validity + version). */
export interface RevisableRule {
  label: string;
  table:
    | 'commission_rate'
    | 'payout_rule'
    | 'override_rule'
    | 'chargeback_rule'
    | 'collection_rule'
    | 'renewal_rule'
    | 'reinstatement_rule'
    | 'persistency_rule'
    | 'appointment_rule';
  idColumn: 'rate_id' | 'rule_id' | 'override_id' | 'cb_rule_id';
  menu: string;
}

/** Common part of every revise body; the rule's own changeable fields are added per table. */
export const reviseBase = {
  effectiveFrom: zDate,
  /** The version of the revised row the client saw; a stale one gives B002. */
  version: z.number().int().min(0).optional(),
};

export const reviseResult = z.object({ id: z.number().int(), previousId: z.number().int(), version: z.number().int() });

type Row = Record<string, unknown>;

/**
 * Spec 9: a revision is a new row with a later effective_from. In one transaction the revised row
 * is closed (effective_to = the new effectiveFrom) and a copy with `changes` (columns) applied is
 * inserted, valid from effectiveFrom up to the old row's effective_to. Both rows end at version + 1:
 * the new row is the next version, and the closed row changed, so an update holding its old version
 * gets B002 instead of silently reopening the period.
 */
export async function reviseRule(
  db: Db,
  request: FastifyRequest,
  rule: RevisableRule,
  id: number,
  body: { effectiveFrom: string; version?: number },
  changes: Row,
): Promise<z.infer<typeof reviseResult>> {
  const userId = request.user?.userId ?? null;
  const table = sql.table(rule.table);
  const idRef = sql.ref(rule.idColumn);
  const { source, closed, inserted } = await db.transaction().execute(async (trx) => {
    const source = (await sql<Row>`SELECT * FROM ${table} WHERE ${idRef} = ${id} FOR UPDATE`.execute(trx)).rows[0];
    if (!source) throw notFound(`${rule.label} ${id}`);
    if (body.version !== undefined && Number(source.version) !== body.version) throw new AppError('RULE_VERSION_CONFLICT');
    const from = String(source.effective_from);
    const to = source.effective_to === null ? null : String(source.effective_to);
    if (body.effectiveFrom <= from) throw invalid('effectiveFrom', `must be after ${from}, the effectiveFrom of the revised row`);
    if (to !== null && body.effectiveFrom >= to) throw invalid('effectiveFrom', `must be before ${to}, the effectiveTo of the revised row`);
    const version = Number(source.version) + 1;
    const now = new Date();
    const closed = (
      await sql<Row>`UPDATE ${table} SET effective_to = ${body.effectiveFrom}, version = ${version}, updated_at = ${now}, updated_by = ${userId}
        WHERE ${idRef} = ${id} RETURNING *`.execute(trx)
    ).rows[0]!;
    // The new row copies the rule's own columns; id and audit columns are the new row's own.
    const copy: Row = { ...source, ...changes, effective_from: body.effectiveFrom, effective_to: to, version, created_by: userId, updated_by: userId };
    for (const column of [rule.idColumn, 'created_at', 'updated_at']) delete copy[column];
    const columns = Object.keys(copy);
    const inserted = (
      await sql<Row>`INSERT INTO ${table} (${sql.join(columns.map((c) => sql.ref(c)))})
        VALUES (${sql.join(columns.map((c) => copy[c]))}) RETURNING *`.execute(trx)
    ).rows[0]!;
    return { source, closed, inserted };
  });
  request.changeLog({ menuCode: rule.menu, tableName: rule.table, recordId: id, action: 'UPDATE', before: source, after: closed });
  const newId = Number(inserted[rule.idColumn]);
  request.changeLog({ menuCode: rule.menu, tableName: rule.table, recordId: newId, action: 'CREATE', after: inserted });
  return { id: newId, previousId: id, version: Number(inserted.version) };
}
