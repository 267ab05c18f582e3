import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError, invalid, notFound, zDate } from '@csp/service-kit';

/** A revisable rule table (half-open validity + version). */
export interface RevisableRule {
  label: string;
  table: 'commission_rate' | 'payout_rule';
  idColumn: 'rate_id' | 'rule_id';
  menu: string;
}

/** Common part of every revise body; the rule's own changeable fields are added per table. */
export const reviseBase = {
  effectiveFrom: zDate,
  /** The version of the revised row the client saw; a stale one gives B002. */
  version: z.number().int().min(0).optional(),
};

export const reviseResult = z.object({
  id: z.number().int(),
  previousId: z.number().int(),
  version: z.number().int(),
});

type Row = Record<string, any>;

/**
 * Spec 9: a revision is a new row with a later effective_from. In one transaction the revised row
 * is closed (effective_to = the new effectiveFrom) and a copy with `changes` applied is inserted,
 * valid from effectiveFrom up to the old row's effective_to. Both rows end at version + 1: the
 * new row is the next version, and the closed row changed, so an update holding its old version
 * gets B002 instead of silently reopening the period.
 */
export async function reviseRule(
  app: FastifyInstance<any, any, any, any, any>,
  request: FastifyRequest,
  rule: RevisableRule,
  id: number,
  body: { effectiveFrom: string; version?: number },
  changes: Row,
): Promise<z.infer<typeof reviseResult>> {
  const db = app.db as unknown as Kysely<any>;
  const userId = request.user?.userId ?? null;
  const { source, closed, inserted } = await db.transaction().execute(async (trx) => {
    const source = (await trx.selectFrom(rule.table).selectAll().where(rule.idColumn, '=', id).forUpdate().executeTakeFirst()) as
      | Row
      | undefined;
    if (!source) throw notFound(`${rule.label} ${id}`);
    if (body.version !== undefined && Number(source.version) !== body.version) throw new AppError('RULE_VERSION_CONFLICT');
    if (body.effectiveFrom <= source.effective_from) {
      throw invalid('effectiveFrom', `must be after ${source.effective_from}, the effectiveFrom of the revised row`);
    }
    if (source.effective_to !== null && body.effectiveFrom >= source.effective_to) {
      throw invalid('effectiveFrom', `must be before ${source.effective_to}, the effectiveTo of the revised row`);
    }
    const version = Number(source.version) + 1;
    const closed = (await trx
      .updateTable(rule.table)
      .set({ effective_to: body.effectiveFrom, version, updated_at: new Date(), updated_by: userId })
      .where(rule.idColumn, '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
    // The new row copies the rule's own columns; id and audit columns are the new row's own.
    const copy: Row = { ...source };
    for (const column of [rule.idColumn, 'created_at', 'updated_at', 'created_by', 'updated_by']) delete copy[column];
    const inserted = (await trx
      .insertInto(rule.table)
      .values({
        ...copy,
        ...changes,
        effective_from: body.effectiveFrom,
        effective_to: source.effective_to,
        version,
        created_by: userId,
        updated_by: userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
    return { source, closed, inserted };
  });
  request.changeLog({ menuCode: rule.menu, tableName: rule.table, recordId: id, action: 'UPDATE', before: source, after: closed });
  const newId = Number(inserted[rule.idColumn]);
  request.changeLog({ menuCode: rule.menu, tableName: rule.table, recordId: newId, action: 'CREATE', after: inserted });
  return { id: newId, previousId: id, version: Number(inserted.version) };
}
