import type { Db, SimulationStatus } from '@csp/db';
import { AppError, invalid, notFound } from '@csp/service-kit';
import { sql } from 'kysely';
import { z } from 'zod';
import { changeSchema, checkChange, ruleTableInfo } from './simulation.rules.js';

export const simulationSaveSchema = z.object({
  name: z.string().trim().min(1).max(100),
  baseMonth: z.string().regex(/^\d{4}(0[1-9]|1[0-2])$/, 'must be a month YYYYMM'),
  scopeType: z.enum(['ALL', 'ORG', 'AGENTS']),
  scopeOrgId: z.number().int().positive().nullable().optional(),
  scopeAgentIds: z.array(z.number().int().positive()).max(10_000).optional(),
  changes: z.array(changeSchema).min(1).max(50),
});
export type SimulationSave = z.infer<typeof simulationSaveSchema>;

const EDITABLE: readonly SimulationStatus[] = ['DRAFT', 'DONE', 'FAILED'];

function labelOf(change: SimulationSave['changes'][number]): string {
  const info = ruleTableInfo(change.ruleTable)!;
  const target = change.targetId !== undefined ? ` #${change.targetId}` : '';
  const values = Object.entries(change.values ?? {})
    .filter(([k]) => k !== 'effectiveFrom' && k !== 'effectiveTo')
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
  const when = change.action === 'END' ? ` to ${change.endDate}` : change.values?.effectiveFrom ? ` from ${String(change.values.effectiveFrom)}` : '';
  return `${info.label}${target} ${change.action}${values ? ` ${values}` : ''}${when}`.slice(0, 300);
}

async function checkBody(db: Db, body: SimulationSave): Promise<void> {
  if (body.scopeType === 'ORG') {
    if (!body.scopeOrgId) throw invalid('scopeOrgId', 'is required for scope ORG');
    const org = await db.selectFrom('organization').select('org_id').where('org_id', '=', body.scopeOrgId).executeTakeFirst();
    if (!org) throw invalid('scopeOrgId', `no organization ${body.scopeOrgId}`);
  }
  if (body.scopeType === 'AGENTS') {
    const ids = [...new Set(body.scopeAgentIds ?? [])];
    if (ids.length === 0) throw invalid('scopeAgentIds', 'is required for scope AGENTS');
    const found = await db.selectFrom('agent').select('agent_id').where('agent_id', 'in', ids).execute();
    if (found.length !== ids.length) {
      const known = new Set(found.map((a) => Number(a.agent_id)));
      throw invalid('scopeAgentIds', `unknown agent ${ids.find((id) => !known.has(id))}`);
    }
  }
  for (const [i, change] of body.changes.entries()) await checkChange(db, change, i);
}

async function writeChanges(trx: Db, simulationId: number, body: SimulationSave): Promise<void> {
  await trx.deleteFrom('simulation_change').where('simulation_id', '=', simulationId).execute();
  await trx
    .insertInto('simulation_change')
    .values(
      body.changes.map((c, i) => ({
        simulation_id: simulationId,
        seq: i + 1,
        rule_table: c.ruleTable,
        action: c.action,
        target_id: c.targetId ?? null,
        values: c.values ? JSON.stringify(c.values) : null,
        end_date: c.endDate ?? null,
        label: labelOf(c),
      })),
    )
    .execute();
}

function scopeColumns(body: SimulationSave) {
  return {
    name: body.name,
    base_month: body.baseMonth,
    scope_type: body.scopeType,
    scope_org_id: body.scopeType === 'ORG' ? (body.scopeOrgId ?? null) : null,
    scope_agent_ids: body.scopeType === 'AGENTS' ? [...new Set(body.scopeAgentIds ?? [])] : [],
  };
}

export async function createSimulation(db: Db, userId: number | null, body: SimulationSave): Promise<number> {
  await checkBody(db, body);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('simulation')
      .values({ ...scopeColumns(body), created_by: userId })
      .returning('simulation_id')
      .executeTakeFirstOrThrow();
    await writeChanges(trx, row.simulation_id, body);
    return row.simulation_id;
  });
}

export async function loadSimulation(db: Db, id: number, forUpdate = false) {
  const row = await db
    .selectFrom('simulation')
    .selectAll()
    .where('simulation_id', '=', id)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw notFound(`Simulation ${id}`);
  return row;
}

/** Replaces name, scope and changes; the results of an earlier run are discarded (status DRAFT). */
export async function updateSimulation(db: Db, id: number, body: SimulationSave): Promise<void> {
  await checkBody(db, body);
  await db.transaction().execute(async (trx) => {
    const sim = await loadSimulation(trx, id, true);
    if (!EDITABLE.includes(sim.status)) throw new AppError('BAD_REQUEST', `Simulation ${id} is ${sim.status}: not editable`);
    await trx
      .updateTable('simulation')
      .set({ ...scopeColumns(body), status: 'DRAFT', processed: 0, total: 0, eta_seconds: null, error_message: null, updated_at: new Date() })
      .where('simulation_id', '=', id)
      .execute();
    await trx.deleteFrom('simulation_agent_result').where('simulation_id', '=', id).execute();
    await trx.deleteFrom('simulation_settle').where('simulation_id', '=', id).execute();
    await writeChanges(trx, id, body);
  });
}

export async function deleteSimulation(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const sim = await loadSimulation(trx, id, true);
    if (['QUEUED', 'RUNNING', 'ADOPTION_PENDING'].includes(sim.status)) {
      throw new AppError('BAD_REQUEST', `Simulation ${id} is ${sim.status}: it cannot be deleted now`);
    }
    await trx.deleteFrom('simulation').where('simulation_id', '=', id).execute();
  });
}

/** DRAFT/DONE/FAILED -> QUEUED; the caller enqueues the job after the commit. */
export async function queueSimulation(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const sim = await loadSimulation(trx, id, true);
    if (!EDITABLE.includes(sim.status)) throw new AppError('BAD_REQUEST', `Simulation ${id} is ${sim.status}: it cannot run now`);
    await trx
      .updateTable('simulation')
      .set({ status: 'QUEUED', processed: 0, total: 0, eta_seconds: null, error_message: null, updated_at: new Date() })
      .where('simulation_id', '=', id)
      .execute();
  });
}

export async function changesOf(db: Db, id: number) {
  const rows = await db.selectFrom('simulation_change').selectAll().where('simulation_id', '=', id).orderBy('seq').execute();
  return rows.map((c) => ({
    changeId: Number(c.change_id),
    seq: c.seq,
    ruleTable: c.rule_table,
    action: c.action,
    targetId: c.target_id === null ? null : Number(c.target_id),
    values: (c.values ?? null) as Record<string, unknown> | null,
    endDate: c.end_date,
    label: c.label,
    amountMoved: c.amount_moved,
  }));
}

export async function requireDone(db: Db, id: number) {
  const sim = await loadSimulation(db, id);
  if (!['DONE', 'ADOPTION_PENDING', 'ADOPTED'].includes(sim.status)) {
    throw new AppError('BAD_REQUEST', `Simulation ${id} has no results (status ${sim.status})`);
  }
  return sim;
}

const money = (column: string) => sql<string>`${sql.ref(column)}::numeric(18,2)::text`;

/** Totals, histogram, top gainers/losers and per-change amounts of a finished simulation. */
export async function summaryOf(db: Db, id: number) {
  await requireDone(db, id);
  const { rows: totals } = await sql<Record<string, string | number>>`
    SELECT coalesce(sum(gross_before), 0)::numeric(18,2)::text AS "grossBefore",
           coalesce(sum(gross_after), 0)::numeric(18,2)::text AS "grossAfter",
           coalesce(sum(gross_after - gross_before), 0)::numeric(18,2)::text AS "grossDiff",
           coalesce(sum(net_before), 0)::numeric(18,2)::text AS "netBefore",
           coalesce(sum(net_after), 0)::numeric(18,2)::text AS "netAfter",
           coalesce(sum(net_after - net_before), 0)::numeric(18,2)::text AS "netDiff",
           count(*) FILTER (WHERE gross_after > gross_before)::int AS "agentsUp",
           count(*) FILTER (WHERE gross_after < gross_before)::int AS "agentsDown",
           count(*) FILTER (WHERE gross_after = gross_before)::int AS "agentsSame",
           count(*)::int AS "agentCount"
    FROM simulation_agent_result WHERE simulation_id = ${id}`.execute(db);
  const histogram = await histogramOf(db, id);
  const top = (direction: 'desc' | 'asc') =>
    agentRows(db, id, { sort: direction === 'desc' ? '-grossDiff' : 'grossDiff', page: 1, size: 10, direction: direction === 'desc' ? 'up' : 'down' });
  const changes = await changesOf(db, id);
  const grossDiff = String(totals[0]!.grossDiff);
  return {
    totals: totals[0]!,
    histogram,
    topGainers: (await top('desc')).items,
    topLosers: (await top('asc')).items,
    // stored by the run (waterfall in seq order, simulation.job.ts); a one-change simulation run before the
    // amounts were stored moved the whole difference
    changes: changes.map((c) => ({
      changeId: c.changeId,
      ruleTable: c.ruleTable,
      action: c.action,
      label: c.label,
      amountMoved: c.amountMoved ?? (changes.length === 1 ? grossDiff : null),
    })),
  };
}

/** 10 equal-width buckets over [min diff, max diff], agents without change in their own bucket 0..0. */
async function histogramOf(db: Db, id: number) {
  const { rows } = await sql<{ lo: string | null; hi: string | null; zero: number }>`
    SELECT min(gross_after - gross_before)::text AS lo, max(gross_after - gross_before)::text AS hi,
           count(*) FILTER (WHERE gross_after = gross_before)::int AS zero
    FROM simulation_agent_result WHERE simulation_id = ${id}`.execute(db);
  const r = rows[0]!;
  if (r.lo === null || r.hi === null) return [];
  const { rows: buckets } = await sql<{ from: string; to: string; count: number }>`
    WITH d AS (SELECT (gross_after - gross_before) AS diff FROM simulation_agent_result
               WHERE simulation_id = ${id} AND gross_after <> gross_before),
         b AS (SELECT ${r.lo}::numeric AS lo, greatest((${r.hi}::numeric - ${r.lo}::numeric) / 10, 0.01) AS w)
    SELECT (b.lo + b.w * k)::numeric(18,2)::text AS "from", (b.lo + b.w * (k + 1))::numeric(18,2)::text AS "to",
           (SELECT count(*) FROM d WHERE least(floor((d.diff - b.lo) / b.w), 9) = k)::int AS count
    FROM b, generate_series(0, 9) AS k ORDER BY k`.execute(db);
  return [{ from: '0.00', to: '0.00', count: r.zero }, ...buckets.filter((x) => x.count > 0)];
}

export interface AgentQuery {
  page: number;
  size: number;
  sort?: string;
  orgId?: number;
  keyword?: string;
  direction?: 'up' | 'down' | 'same';
}

const SORTS: Record<string, string> = {
  grossDiff: '(r.gross_after - r.gross_before)',
  grossDiffPct: 'CASE WHEN r.gross_before = 0 THEN NULL ELSE (r.gross_after - r.gross_before) / abs(r.gross_before) END',
  agentName: 'a.agent_name',
  agentId: 'r.agent_id',
  grossBefore: 'r.gross_before',
  grossAfter: 'r.gross_after',
  netDiff: '(r.net_after - r.net_before)',
};

export async function agentRows(db: Db, id: number, q: AgentQuery) {
  const key = (q.sort ?? '-grossDiff').replace(/^-/, '');
  if (!SORTS[key]) throw invalid('sort', `must be one of ${Object.keys(SORTS).join(', ')}`);
  const desc = (q.sort ?? '-grossDiff').startsWith('-');
  const where = [sql`r.simulation_id = ${id}`];
  if (q.orgId !== undefined) {
    where.push(sql`r.org_id IN (WITH RECURSIVE sub AS (SELECT org_id FROM organization WHERE org_id = ${q.orgId}
      UNION ALL SELECT o.org_id FROM organization o JOIN sub ON o.parent_org_id = sub.org_id) SELECT org_id FROM sub)`);
  }
  if (q.keyword) where.push(sql`(a.agent_name ILIKE ${`%${q.keyword}%`} OR r.agent_id::text = ${q.keyword})`);
  if (q.direction === 'up') where.push(sql`r.gross_after > r.gross_before`);
  if (q.direction === 'down') where.push(sql`r.gross_after < r.gross_before`);
  if (q.direction === 'same') where.push(sql`r.gross_after = r.gross_before`);
  const filter = sql.join(where, sql` AND `);
  const { rows: count } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM simulation_agent_result r JOIN agent a ON a.agent_id = r.agent_id WHERE ${filter}`.execute(db);
  const { rows } = await sql<Record<string, unknown>>`
    SELECT r.agent_id AS "agentId", a.agent_name AS "agentName", r.org_id AS "orgId", o.org_name AS "orgName",
           ${money('r.gross_before')} AS "grossBefore", ${money('r.gross_after')} AS "grossAfter",
           (r.gross_after - r.gross_before)::numeric(18,2)::text AS "grossDiff",
           CASE WHEN r.gross_before = 0 THEN NULL
                ELSE round((r.gross_after - r.gross_before) * 100 / abs(r.gross_before), 2)::text END AS "grossDiffPct",
           ${money('r.net_before')} AS "netBefore", ${money('r.net_after')} AS "netAfter",
           (r.net_after - r.net_before)::numeric(18,2)::text AS "netDiff"
    FROM simulation_agent_result r JOIN agent a ON a.agent_id = r.agent_id LEFT JOIN organization o ON o.org_id = r.org_id
    WHERE ${filter}
    ORDER BY ${sql.raw(SORTS[key]!)} ${sql.raw(desc ? 'DESC NULLS LAST' : 'ASC NULLS LAST')}, r.agent_id
    LIMIT ${q.size} OFFSET ${(q.page - 1) * q.size}`.execute(db);
  return { items: rows, total: count[0]!.n, page: q.page, size: q.size };
}

/** Every org with agents in scope, its figures rolled up its whole subtree. */
export async function orgRows(db: Db, id: number) {
  await requireDone(db, id);
  const { rows } = await sql<Record<string, unknown>>`
    WITH RECURSIVE up AS (
      SELECT r.agent_id, r.org_id AS ancestor FROM simulation_agent_result r WHERE r.simulation_id = ${id} AND r.org_id IS NOT NULL
      UNION ALL
      SELECT up.agent_id, o.parent_org_id FROM up JOIN organization o ON o.org_id = up.ancestor WHERE o.parent_org_id IS NOT NULL)
    SELECT o.org_id AS "orgId", o.parent_org_id AS "parentId", o.org_name AS "orgName", o.org_level AS "orgLevel",
           sum(r.gross_before)::numeric(18,2)::text AS "grossBefore", sum(r.gross_after)::numeric(18,2)::text AS "grossAfter",
           sum(r.gross_after - r.gross_before)::numeric(18,2)::text AS "grossDiff",
           sum(r.net_before)::numeric(18,2)::text AS "netBefore", sum(r.net_after)::numeric(18,2)::text AS "netAfter",
           sum(r.net_after - r.net_before)::numeric(18,2)::text AS "netDiff",
           count(*)::int AS "agentCount"
    FROM up JOIN simulation_agent_result r ON r.simulation_id = ${id} AND r.agent_id = up.agent_id
    JOIN organization o ON o.org_id = up.ancestor
    GROUP BY o.org_id, o.parent_org_id, o.org_name, o.org_level
    ORDER BY o.org_level, o.org_id`.execute(db);
  return rows;
}

/** Per agent of two finished simulations of the same base month: gross A, gross B, B - A. */
export async function compareSimulations(db: Db, a: number, b: number) {
  const [simA, simB] = [await requireDone(db, a), await requireDone(db, b)];
  if (simA.base_month !== simB.base_month) throw invalid('b', `is of month ${simB.base_month}, a of ${simA.base_month}`);
  const { rows } = await sql<Record<string, unknown>>`
    SELECT coalesce(x.agent_id, y.agent_id) AS "agentId", ag.agent_name AS "agentName",
           coalesce(x.gross_after, 0)::numeric(18,2)::text AS "grossA", coalesce(y.gross_after, 0)::numeric(18,2)::text AS "grossB",
           (coalesce(y.gross_after, 0) - coalesce(x.gross_after, 0))::numeric(18,2)::text AS diff
    FROM (SELECT * FROM simulation_agent_result WHERE simulation_id = ${a}) x
    FULL JOIN (SELECT * FROM simulation_agent_result WHERE simulation_id = ${b}) y ON y.agent_id = x.agent_id
    JOIN agent ag ON ag.agent_id = coalesce(x.agent_id, y.agent_id)
    ORDER BY abs(coalesce(y.gross_after, 0) - coalesce(x.gross_after, 0)) DESC, 1`.execute(db);
  const { rows: totals } = await sql<Record<string, string>>`
    SELECT coalesce(sum(gross_after) FILTER (WHERE simulation_id = ${a}), 0)::numeric(18,2)::text AS "grossA",
           coalesce(sum(gross_after) FILTER (WHERE simulation_id = ${b}), 0)::numeric(18,2)::text AS "grossB",
           (coalesce(sum(gross_after) FILTER (WHERE simulation_id = ${b}), 0)
             - coalesce(sum(gross_after) FILTER (WHERE simulation_id = ${a}), 0))::numeric(18,2)::text AS diff
    FROM simulation_agent_result WHERE simulation_id IN (${a}, ${b})`.execute(db);
  return { items: rows, totals: totals[0]! };
}
