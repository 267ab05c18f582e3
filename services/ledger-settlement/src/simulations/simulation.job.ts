import type { Db } from '@csp/db';
import { sql } from 'kysely';
import type { StepContext } from '@csp/batch';
type Logger = StepContext['logger'];
import { explainSettlement, type SettleRow } from '../explain/explain.service.js';
import { runLedgerSteps, scratchDb } from './simulation.engine.js';
import { applyChange, checkChange, type ChangeInput } from './simulation.rules.js';
import { createScratch, dropScratch, resetWritten } from './simulation.scratch.js';

/** The agents of a scope: undefined = the whole book. */
export async function scopeAgents(
  db: Db,
  scope: { scope_type: string; scope_org_id: number | null; scope_agent_ids: number[] },
): Promise<number[] | undefined> {
  if (scope.scope_type === 'ALL') return undefined;
  if (scope.scope_type === 'AGENTS') return scope.scope_agent_ids.map(Number);
  const { rows } = await sql<{ agent_id: number }>`
    WITH RECURSIVE sub AS (
      SELECT org_id FROM organization WHERE org_id = ${scope.scope_org_id}
      UNION ALL
      SELECT o.org_id FROM organization o JOIN sub ON o.parent_org_id = sub.org_id)
    SELECT a.agent_id FROM agent a WHERE a.org_id IN (SELECT org_id FROM sub) ORDER BY a.agent_id`.execute(db);
  return rows.map((r) => Number(r.agent_id));
}

export interface SimulationJobDeps {
  db: Db;
  connectionString: string;
  logger: Logger;
  signal?: AbortSignal;
}

/**
 * One simulation run: scratch schema, proposed changes layered over the copied rule tables, the real ledger
 * steps on it, per-agent results copied to simulation_* tables, scratch dropped. Nothing in a real table moves.
 *
 * Several changes are attributed by a waterfall in seq order: the steps run once per change, change k applied on
 * top of changes 1..k-1 (written tables reset in between), and change k moved the scope's gross total after run k
 * minus the one after run k-1 — run 0 being the real month (the results' "before"), the last run the
 * simulation's own result. The amounts then add up exactly to the total gross difference; one change is one run.
 */
export async function runSimulation(deps: SimulationJobDeps, simulationId: number): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  let mark = Date.now();
  const lap = (name: string) => {
    timings[name] = (timings[name] ?? 0) + Date.now() - mark;
    mark = Date.now();
  };
  const { db } = deps;
  const sim = await db.selectFrom('simulation').selectAll().where('simulation_id', '=', simulationId).executeTakeFirst();
  if (!sim) throw new Error(`simulation ${simulationId} not found`);
  const started = Date.now();
  const month = sim.base_month;
  await db
    .updateTable('simulation')
    .set({ status: 'RUNNING', started_at: new Date(), finished_at: null, processed: 0, total: 0, eta_seconds: null, error_message: null, updated_at: new Date() })
    .where('simulation_id', '=', simulationId)
    .execute();
  try {
    const changes = await db.selectFrom('simulation_change').selectAll().where('simulation_id', '=', simulationId).orderBy('seq').execute();
    await db.updateTable('simulation_change').set({ amount_moved: null }).where('simulation_id', '=', simulationId).execute();
    // every change checked before the first (long) run
    const checked: Record<string, unknown>[] = [];
    for (const [i, change] of changes.entries()) {
      const input: ChangeInput = {
        ruleTable: change.rule_table as ChangeInput['ruleTable'],
        action: change.action,
        targetId: change.target_id ?? undefined,
        values: (change.values ?? undefined) as Record<string, unknown> | undefined,
        endDate: change.end_date ?? undefined,
      };
      checked.push(await checkChange(db, input, i));
    }
    const agents = await scopeAgents(db, sim);
    const schema = await createScratch(db, simulationId, month, agents);
    let previous = await scopeGross(db, 'public', month, agents);
    lap('scratch');
    const progress = runsProgress(db, simulationId, started, changes.length);
    for (const [i, change] of changes.entries()) {
      if (i > 0) {
        await resetWritten(db, schema, month);
        lap('scratch');
      }
      await applyChange(db, schema, change, checked[i]!);
      const steps: Record<string, number> = {};
      await runLedgerSteps({
        simulationId,
        settleMonth: month,
        schema,
        connectionString: deps.connectionString,
        logger: deps.logger,
        signal: deps.signal,
        timings: steps,
        onProgress: (done, planned) => progress.update(i, done, planned),
      });
      progress.finishRun();
      for (const [step, ms] of Object.entries(steps)) timings[step] = (timings[step] ?? 0) + ms;
      const gross = await scopeGross(db, schema, month, agents);
      await db
        .updateTable('simulation_change')
        .set({ amount_moved: sql<string>`${gross}::numeric - ${previous}::numeric` })
        .where('change_id', '=', change.change_id)
        .execute();
      previous = gross;
      lap('steps');
    }
    await progress.finish();
    await storeResults(db, simulationId, schema, month, agents);
    lap('results');
    await storeExplains(deps, simulationId, schema);
    lap('explains');
    await db
      .updateTable('simulation')
      .set({ status: 'DONE', finished_at: new Date(), eta_seconds: 0, updated_at: new Date() })
      .where('simulation_id', '=', simulationId)
      .execute();
  } catch (err) {
    deps.logger.error({ err, simulationId }, 'simulation failed');
    await db
      .updateTable('simulation')
      .set({ status: 'FAILED', finished_at: new Date(), error_message: String((err as Error).message ?? err).slice(0, 1000), updated_at: new Date() })
      .where('simulation_id', '=', simulationId)
      .execute();
  } finally {
    await dropScratch(db, simulationId);
  }
  return timings;
}

/**
 * processed/total/ETA over all runs of a simulation: the finished runs' work units, the current run's, and the
 * runs still to come estimated at the size of the latest one (a run's plan grows step by step).
 */
function runsProgress(db: Db, simulationId: number, started: number, runs: number) {
  let doneBefore = 0;
  let lastRun = 0;
  let current = 0;
  const write = async (processed: number, total: number) => {
    const elapsed = (Date.now() - started) / 1000;
    await db
      .updateTable('simulation')
      .set({ processed, total, eta_seconds: processed === 0 ? null : Math.round((elapsed / processed) * (total - processed)) })
      .where('simulation_id', '=', simulationId)
      .execute();
  };
  return {
    update: async (run: number, done: number, planned: number) => {
      current = done;
      const perRun = Math.max(planned, lastRun);
      await write(doneBefore + done, doneBefore + perRun * (runs - run));
    },
    finishRun: () => {
      doneBefore += current;
      lastRun = current;
      current = 0;
    },
    /** the runs' exact count once all are done */
    finish: () => write(doneBefore, doneBefore),
  };
}

/**
 * The scope's gross total of the month in `schema`'s settle_master (public = the real month), agents as in
 * storeResults: sum(gross_before) on public, sum(gross_after) on the scratch copy. A numeric text.
 */
async function scopeGross(db: Db, schema: string, month: string, agents: number[] | undefined): Promise<string> {
  const { rows } = await sql<{ gross: string }>`
    SELECT coalesce(sum(s.gross_amount), 0)::text AS gross
    FROM ${sql.id(schema, 'settle_master')} s JOIN agent a ON a.agent_id = s.agent_id
    WHERE s.settle_month = ${month} AND ${agents === undefined ? sql`true` : sql`s.agent_id = ANY(${agents}::bigint[])`}`.execute(db);
  return rows[0]!.gross;
}

/**
 * Per agent in scope: before = the real month's settle row, after = the simulated one (0 when absent). The
 * simulated settle rows are kept (simulation_settle) for the side-by-side explain.
 */
async function storeResults(
  db: Db,
  simulationId: number,
  schema: string,
  month: string,
  agents: number[] | undefined,
): Promise<void> {
  const sim = sql.id(schema, 'settle_master');
  const inScope = agents === undefined ? sql`true` : sql`k.agent_id = ANY(${agents}::bigint[])`;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('simulation_agent_result').where('simulation_id', '=', simulationId).execute();
    await trx.deleteFrom('simulation_settle').where('simulation_id', '=', simulationId).execute();
    await sql`
      INSERT INTO simulation_agent_result (simulation_id, agent_id, org_id, gross_before, gross_after, net_before, net_after)
      SELECT ${simulationId}::bigint, k.agent_id, a.org_id, coalesce(r.gross_amount, 0), coalesce(s.gross_amount, 0),
             coalesce(r.net_amount, 0), coalesce(s.net_amount, 0)
      FROM (SELECT agent_id FROM public.settle_master WHERE settle_month = ${month}
            UNION SELECT agent_id FROM ${sim} WHERE settle_month = ${month}) k
      JOIN agent a ON a.agent_id = k.agent_id
      LEFT JOIN public.settle_master r ON r.agent_id = k.agent_id AND r.settle_month = ${month}
      LEFT JOIN ${sim} s ON s.agent_id = k.agent_id AND s.settle_month = ${month}
      WHERE ${inScope}`.execute(trx);
    await sql`
      INSERT INTO simulation_settle (simulation_id, agent_id, settle)
      SELECT ${simulationId}::bigint, s.agent_id, to_jsonb(s) FROM ${sim} s
      WHERE s.settle_month = ${month} AND ${agents === undefined ? sql`true` : sql`s.agent_id = ANY(${agents}::bigint[])`}`.execute(trx);
  });
}

/** Simulated explains kept per simulation: the agents whose gross moved most (an unchanged agent's is the real one). */
export const STORED_EXPLAINS = 100;

/** The simulated explain of the agents whose gross moved (largest moves first), read on the scratch schema. */
async function storeExplains(deps: SimulationJobDeps, simulationId: number, schema: string): Promise<void> {
  const { rows: moved } = await sql<{ agent_id: number }>`
    SELECT agent_id FROM simulation_agent_result WHERE simulation_id = ${simulationId} AND gross_after <> gross_before
    ORDER BY abs(gross_after - gross_before) DESC, agent_id LIMIT ${STORED_EXPLAINS}`.execute(deps.db);
  if (moved.length === 0) return;
  const scratch = scratchDb(deps.connectionString, schema, 1);
  try {
    const { rows } = await sql<SettleRow>`
      SELECT s.settle_id, s.agent_id, a.agent_name, s.settle_month, s.status, s.recruit_total, s.maintain_total,
             s.override_total, s.exception_plus, s.exception_minus, s.chargeback_total, s.gross_amount, s.tax_amount,
             s.net_amount, s.correction_total, s.other_total, s.calc_basis
      FROM settle_master s JOIN agent a ON a.agent_id = s.agent_id
      WHERE s.agent_id = ANY(${moved.map((m) => m.agent_id)}::bigint[])`.execute(scratch);
    const explains: { agent_id: number; explain: unknown }[] = [];
    for (const row of rows) explains.push({ agent_id: Number(row.agent_id), explain: await explainSettlement(scratch, row) });
    if (explains.length === 0) return;
    // one UPDATE for all of them, not one round trip per agent
    await sql`
      UPDATE simulation_settle t SET explain = e.explain
      FROM jsonb_to_recordset(${JSON.stringify(explains)}::jsonb) AS e(agent_id bigint, explain jsonb)
      WHERE t.simulation_id = ${simulationId} AND t.agent_id = e.agent_id`.execute(deps.db);
  } finally {
    await scratch.destroy();
  }
}
