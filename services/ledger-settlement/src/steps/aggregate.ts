import { defineStep, type StepContext, type Trx } from '@csp/batch';
import { analyzeMonthPartitions } from '@csp/db';
import { calcSettlementWithOther, DomainError, formatMoney } from '@csp/domain';
import { sql, type RawBuilder } from 'kysely';
import { planAgentChunks } from '../calc/agent-chunks.js';
import { employedInMonthSql } from '../calc/employment.js';
import { agentRangeSql, monthByAgent, type AgentRange, type ByAgent } from '../calc/month-by-agent.js';
import { perRun } from '../calc/run-cache.js';
import { loadSettlementConfig } from '../calc/system-config.js';

/** Per agent of the range: the month's sums (numeric sums in SQL are exact) and row counts. */
interface AgentSums {
  agent_id: number;
  agent_status: string;
  has_settle: boolean;
  recruit: string;
  recruit_n: number;
  maintain: string;
  maintain_n: number;
  override: string;
  override_n: number;
  plus: string;
  plus_n: number;
  minus: string;
  minus_n: number;
  chargeback: string;
  chargeback_n: number;
  correction: string;
  correction_n: number;
  /** other_total: other ledger rows + approved incentives + commission-master adjustments (types counted in gross) */
  other: string;
  other_ledger_n: number;
  incentive_n: number;
  adjustment_n: number;
}

/** One agent's month total of one source type (a ledger, override rows, approved incentives). */
interface SourceSum {
  agent_id: number;
  type: string;
  s: string;
  n: number;
}

/** The month's sums per agent and source type, read from the ledgers (exact numeric sums), of a range or the month. */
function ledgerSources(month: string, range: AgentRange): RawBuilder<unknown> {
  const of = (column: string) => agentRangeSql(sql.ref(column), range);
  return sql`
    SELECT agent_id, 'RECRUIT'::text AS type, sum(agent_amount) AS s, count(*)::int AS n FROM recruit_ledger
    WHERE settle_month = ${month} ${of('agent_id')} GROUP BY agent_id
    UNION ALL
    SELECT agent_id, 'MAINTAIN', sum(agent_amount), count(*)::int FROM maintain_ledger
    WHERE settle_month = ${month} ${of('agent_id')} GROUP BY agent_id
    UNION ALL
    SELECT to_agent_id, 'OVERRIDE', sum(override_amount), count(*)::int FROM override_settle
    WHERE settle_month = ${month} ${of('to_agent_id')} GROUP BY to_agent_id
    UNION ALL
    SELECT agent_id, commission_type::text, sum(agent_amount), count(*)::int FROM other_commission_ledger
    WHERE settle_month = ${month} ${of('agent_id')} GROUP BY agent_id, commission_type
    UNION ALL
    SELECT agent_id, 'INCENTIVE', sum(amount), count(*)::int FROM incentive_result
    WHERE settle_month = ${month} AND status = 'APPROVED' ${of('agent_id')} GROUP BY agent_id`;
}

/** The month's source sums of every agent in one pass, per run (see monthByAgent). */
function monthSources(ctx: StepContext): Promise<ByAgent<SourceSum>> {
  return monthByAgent(
    ctx,
    'aggregate-sources',
    sql<SourceSum>`SELECT agent_id, type, s::text AS s, n FROM (${ledgerSources(ctx.settleMonth, null)}) src
      ORDER BY agent_id, type`,
  );
}

/** Source sums already computed (a chunk's slice of monthSources) as the `src` relation of loadSums. */
function givenSources(rows: readonly SourceSum[]): RawBuilder<unknown> {
  return sql`SELECT * FROM unnest(${rows.map((r) => r.agent_id)}::bigint[], ${rows.map((r) => r.type)}::text[],
    ${rows.map((r) => r.s)}::numeric[], ${rows.map((r) => r.n)}::int[]) AS u(agent_id, type, s, n)`;
}

/**
 * One statement per agent range: (re)writes the month's commission_master rows (one per agent and active type with
 * a source, adjustments kept; a row without source keeps only an adjustment) of the agents whose settlement is not
 * locked, and returns the sums of the settle rows. A type counts in other_total when commission_type.is_active
 * and gross_yn = 'Y' (recruit, maintain and override always count: rule 1.2.4). `sources` are the range's
 * (agent, type) sums: from monthSources in a run, straight from the ledgers for one agent outside a run.
 */
async function loadSums(
  trx: Trx,
  month: string,
  from: number,
  to: number,
  runId: number | null,
  sources: RawBuilder<unknown>,
): Promise<AgentSums[]> {
  const { rows } = await sql<AgentSums>`
    WITH src AS (${sources}),
         locked AS (SELECT agent_id FROM settle_master
                    WHERE settle_month = ${month} AND agent_id BETWEEN ${from} AND ${to} AND status <> 'CALCULATED'),
         cm_write AS (
           INSERT INTO commission_master AS cm (agent_id, settle_month, commission_type, computed_amount, source_table, source_count, run_id)
           SELECT src.agent_id, ${month}, src.type, src.s, ct.source_table, src.n, ${runId}::bigint
           FROM src JOIN commission_type ct ON ct.type_code = src.type AND ct.is_active
           WHERE NOT EXISTS (SELECT 1 FROM locked l WHERE l.agent_id = src.agent_id)
           ON CONFLICT (agent_id, settle_month, commission_type) DO UPDATE SET
             computed_amount = EXCLUDED.computed_amount, source_table = EXCLUDED.source_table,
             source_count = EXCLUDED.source_count, run_id = EXCLUDED.run_id, version = cm.version + 1, updated_at = now()
           RETURNING 1),
         cm_stale AS (
           SELECT cm.cm_id, cm.adjustment_amount FROM commission_master cm
           WHERE cm.settle_month = ${month} AND cm.agent_id BETWEEN ${from} AND ${to}
             AND NOT EXISTS (SELECT 1 FROM src JOIN commission_type ct ON ct.type_code = src.type AND ct.is_active
                             WHERE src.agent_id = cm.agent_id AND src.type = cm.commission_type)
             AND NOT EXISTS (SELECT 1 FROM locked l WHERE l.agent_id = cm.agent_id)),
         cm_delete AS (
           DELETE FROM commission_master cm USING cm_stale x WHERE cm.cm_id = x.cm_id AND x.adjustment_amount = 0 RETURNING 1),
         cm_zero AS (
           UPDATE commission_master cm SET computed_amount = 0, source_count = 0, run_id = ${runId}::bigint,
             version = cm.version + 1, updated_at = now()
           FROM cm_stale x WHERE cm.cm_id = x.cm_id AND x.adjustment_amount <> 0
             AND (cm.computed_amount <> 0 OR cm.source_count <> 0)
           RETURNING 1),
         t AS (SELECT type_code, (is_active AND gross_yn = 'Y') AS counted FROM commission_type),
         p AS (SELECT src.agent_id,
                      sum(src.s) FILTER (WHERE src.type = 'RECRUIT') AS recruit, sum(src.n) FILTER (WHERE src.type = 'RECRUIT') AS recruit_n,
                      sum(src.s) FILTER (WHERE src.type = 'MAINTAIN') AS maintain, sum(src.n) FILTER (WHERE src.type = 'MAINTAIN') AS maintain_n,
                      sum(src.s) FILTER (WHERE src.type = 'OVERRIDE') AS override, sum(src.n) FILTER (WHERE src.type = 'OVERRIDE') AS override_n,
                      sum(src.s) FILTER (WHERE src.type NOT IN ('RECRUIT', 'MAINTAIN', 'OVERRIDE', 'INCENTIVE') AND t.counted) AS other_ledger,
                      sum(src.n) FILTER (WHERE src.type NOT IN ('RECRUIT', 'MAINTAIN', 'OVERRIDE', 'INCENTIVE') AND t.counted) AS other_ledger_n,
                      sum(src.s) FILTER (WHERE src.type = 'INCENTIVE' AND t.counted) AS incentive,
                      sum(src.n) FILTER (WHERE src.type = 'INCENTIVE' AND t.counted) AS incentive_n
               FROM src LEFT JOIN t ON t.type_code = src.type GROUP BY src.agent_id),
         adj AS (SELECT cm.agent_id, sum(cm.adjustment_amount) AS s, count(*) AS n
                 FROM commission_master cm JOIN t ON t.type_code = cm.commission_type AND t.counted
                 WHERE cm.settle_month = ${month} AND cm.agent_id BETWEEN ${from} AND ${to} AND cm.adjustment_amount <> 0
                 GROUP BY cm.agent_id),
         e AS (SELECT agent_id,
                      sum(amount) FILTER (WHERE direction = 'PLUS') AS plus, count(*) FILTER (WHERE direction = 'PLUS') AS plus_n,
                      sum(amount) FILTER (WHERE direction = 'MINUS') AS minus, count(*) FILTER (WHERE direction = 'MINUS') AS minus_n
               FROM exception_ledger
               WHERE settle_month = ${month} AND agent_id BETWEEN ${from} AND ${to}
                 AND approve_status = 'APPROVED' AND status <> 'CANCELLED'
               GROUP BY agent_id),
         c AS (SELECT agent_id, sum(cb_amount) AS s, count(*) AS n FROM chargeback
               WHERE settle_month = ${month} AND agent_id BETWEEN ${from} AND ${to} AND status <> 'CANCELLED'
               GROUP BY agent_id),
         k AS (SELECT agent_id, sum(amount) AS s, count(*) AS n FROM settle_correction
               WHERE target_month = ${month} AND status = 'APPROVED' AND agent_id BETWEEN ${from} AND ${to}
               GROUP BY agent_id),
         sm AS (SELECT agent_id FROM settle_master WHERE settle_month = ${month} AND agent_id BETWEEN ${from} AND ${to})
    SELECT a.agent_id, a.status AS agent_status, (sm.agent_id IS NOT NULL) AS has_settle,
           coalesce(p.recruit, 0)::text AS recruit, coalesce(p.recruit_n, 0)::int AS recruit_n,
           coalesce(p.maintain, 0)::text AS maintain, coalesce(p.maintain_n, 0)::int AS maintain_n,
           coalesce(p.override, 0)::text AS override, coalesce(p.override_n, 0)::int AS override_n,
           coalesce(e.plus, 0)::text AS plus, coalesce(e.plus_n, 0)::int AS plus_n,
           coalesce(e.minus, 0)::text AS minus, coalesce(e.minus_n, 0)::int AS minus_n,
           coalesce(c.s, 0)::text AS chargeback, coalesce(c.n, 0)::int AS chargeback_n,
           coalesce(k.s, 0)::text AS correction, coalesce(k.n, 0)::int AS correction_n,
           (coalesce(p.other_ledger, 0) + coalesce(p.incentive, 0) + coalesce(adj.s, 0))::text AS other,
           coalesce(p.other_ledger_n, 0)::int AS other_ledger_n, coalesce(p.incentive_n, 0)::int AS incentive_n,
           coalesce(adj.n, 0)::int AS adjustment_n
    FROM agent a
    LEFT JOIN p ON p.agent_id = a.agent_id
    LEFT JOIN adj ON adj.agent_id = a.agent_id
    LEFT JOIN e ON e.agent_id = a.agent_id
    LEFT JOIN c ON c.agent_id = a.agent_id
    LEFT JOIN k ON k.agent_id = a.agent_id
    LEFT JOIN sm ON sm.agent_id = a.agent_id
    WHERE a.agent_id BETWEEN ${from} AND ${to} AND ${employedInMonthSql('a', month)}
      AND (a.status = 'ACTIVE' OR p.agent_id IS NOT NULL OR adj.agent_id IS NOT NULL OR e.agent_id IS NOT NULL
           OR c.n IS NOT NULL OR k.n IS NOT NULL OR sm.agent_id IS NOT NULL)
    ORDER BY a.agent_id`.execute(trx);
  return rows;
}

interface SettleRow {
  agentId: number;
  recruit: string;
  maintain: string;
  exceptionPlus: string;
  exceptionMinus: string;
  override: string;
  chargeback: string;
  correction: string;
  other: string;
  gross: string;
  tax: string;
  net: string;
  calcBasis: string;
}

function settleRowOf(runId: number | null, taxRate: string, s: AgentSums): SettleRow {
  const a = calcSettlementWithOther(
    {
      recruit: s.recruit,
      maintain: s.maintain,
      override: s.override,
      exceptionPlus: s.plus,
      exceptionMinus: s.minus,
      chargeback: s.chargeback,
      correction: s.correction,
      other: s.other,
    },
    taxRate,
  );
  return {
    agentId: s.agent_id,
    recruit: formatMoney(a.recruit),
    maintain: formatMoney(a.maintain),
    exceptionPlus: formatMoney(a.exceptionPlus),
    exceptionMinus: formatMoney(a.exceptionMinus),
    override: formatMoney(a.override),
    chargeback: formatMoney(a.chargeback),
    correction: formatMoney(a.correction),
    other: formatMoney(a.other),
    gross: formatMoney(a.gross),
    tax: formatMoney(a.tax),
    net: formatMoney(a.net),
    calcBasis: JSON.stringify({
      runId,
      taxRate,
      agentStatus: s.agent_status,
      counts: {
        recruit: s.recruit_n,
        maintain: s.maintain_n,
        override: s.override_n,
        exceptionPlus: s.plus_n,
        exceptionMinus: s.minus_n,
        chargeback: s.chargeback_n,
        // settlement corrections (V080); absent when none, so rows without corrections keep their shape
        ...(s.correction_n > 0 && { correction: s.correction_n }),
        // other commission types (V090); absent when none, for the same reason
        ...(s.other_ledger_n > 0 && { otherLedger: s.other_ledger_n }),
        ...(s.incentive_n > 0 && { incentive: s.incentive_n }),
        ...(s.adjustment_n > 0 && { adjustment: s.adjustment_n }),
      },
    }),
  };
}

async function upsertSettleRows(
  trx: Trx,
  target: { settleMonth: string; runId: number | null },
  rows: SettleRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const col = <K extends keyof SettleRow>(k: K) => rows.map((r) => r[k]);
  const { rows: written } = await sql<{ settle_id: number }>`
    INSERT INTO settle_master AS t (agent_id, recruit_total, maintain_total, exception_plus, exception_minus,
      override_total, chargeback_total, correction_total, other_total, gross_amount, tax_amount, net_amount, calc_basis,
      settle_month, run_id, status, calc_date)
    SELECT u.*, ${target.settleMonth}::char(6), ${target.runId}::bigint, 'CALCULATED', now() FROM unnest(
      ${col('agentId')}::bigint[], ${col('recruit')}::numeric[], ${col('maintain')}::numeric[],
      ${col('exceptionPlus')}::numeric[], ${col('exceptionMinus')}::numeric[], ${col('override')}::numeric[],
      ${col('chargeback')}::numeric[], ${col('correction')}::numeric[], ${col('other')}::numeric[],
      ${col('gross')}::numeric[], ${col('tax')}::numeric[], ${col('net')}::numeric[],
      ${col('calcBasis')}::jsonb[]) AS u
    ON CONFLICT (agent_id, settle_month) DO UPDATE SET
      recruit_total = EXCLUDED.recruit_total, maintain_total = EXCLUDED.maintain_total,
      exception_plus = EXCLUDED.exception_plus, exception_minus = EXCLUDED.exception_minus,
      override_total = EXCLUDED.override_total, chargeback_total = EXCLUDED.chargeback_total,
      correction_total = EXCLUDED.correction_total, other_total = EXCLUDED.other_total,
      gross_amount = EXCLUDED.gross_amount, tax_amount = EXCLUDED.tax_amount, net_amount = EXCLUDED.net_amount,
      calc_basis = EXCLUDED.calc_basis, run_id = EXCLUDED.run_id, calc_date = EXCLUDED.calc_date,
      version = t.version + 1, updated_at = now()
    WHERE t.status = 'CALCULATED'
    RETURNING settle_id`.execute(trx);
  return written.length;
}

/**
 * An agent outside the month's employment window has no settle row: a CALCULATED one left by an earlier run (its
 * join or leave date changed since) goes, unless a dispute, a hold or a payment points at it (their history
 * stays); locked rows stay as they are.
 */
async function deleteUnemployedRows(trx: Trx, month: string, from: number, to: number): Promise<void> {
  await sql`
    DELETE FROM settle_master s USING agent a
    WHERE s.settle_month = ${month} AND s.agent_id BETWEEN ${from} AND ${to} AND s.status = 'CALCULATED'
      AND a.agent_id = s.agent_id AND NOT ${employedInMonthSql('a', month)}
      AND NOT EXISTS (SELECT 1 FROM commission_dispute d WHERE d.settle_id = s.settle_id)
      AND NOT EXISTS (SELECT 1 FROM settle_hold h WHERE h.settle_id = s.settle_id)
      AND NOT EXISTS (SELECT 1 FROM payment y WHERE y.settle_id = s.settle_id)
      AND NOT EXISTS (SELECT 1 FROM deduction_carry_forward f WHERE f.settle_id = s.settle_id)`.execute(trx);
}

export const aggregate = defineStep({
  name: 'aggregate',
  // The rows steps 6-7 have just written and the commission-master rows of an earlier run: planned on fresh
  // statistics of the month's partitions only (as calcOverride does for the ledgers and the settle rows, which
  // nothing writes in between), each chunk's agent-range reads use the agent keys instead of reading the whole
  // month (a re-run of the 1M book's month: aggregate 27-40 s against 3-4 s in its first run).
  plan: async (ctx) => {
    await analyzeMonthPartitions(ctx.db, ['override_settle', 'commission_master', 'other_commission_ledger', 'exception_ledger'], ctx.settleMonth);
    return planAgentChunks(ctx);
  },
  run: async (ctx, chunk) => {
    if (!chunk) throw new Error('aggregate runs in chunks');
    const config = await perRun(ctx, 'settlement-config', () => loadSettlementConfig(ctx.db));
    return ctx.chunkTransaction(async (trx) => {
      const month = ctx.settleMonth;
      const sources = (await monthSources(ctx)).slice(chunk.from, chunk.to);
      const sums = await loadSums(trx, month, chunk.from, chunk.to, ctx.runId, givenSources(sources));
      const counts = { total: sums.length, success: 0, error: 0, skipped: 0 };
      const rows: SettleRow[] = [];
      for (const s of sums) {
        try {
          rows.push(settleRowOf(ctx.runId, config.taxRate, s));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          counts.error++;
          ctx.logger.warn({ agentId: s.agent_id, code: err.code }, 'settlement refused by a domain rule');
        }
      }
      const written = await upsertSettleRows(trx, ctx, rows);
      await deleteUnemployedRows(trx, month, chunk.from, chunk.to);
      counts.success = written;
      counts.skipped = rows.length - written;
      // Receivers' override rows point at their settle row (locked rows keep theirs).
      await sql`
        UPDATE override_settle o SET settle_id = s.settle_id, updated_at = now()
        FROM settle_master s
        WHERE o.settle_month = ${month} AND o.to_agent_id BETWEEN ${chunk.from} AND ${chunk.to}
          AND s.agent_id = o.to_agent_id AND s.settle_month = o.settle_month
          AND o.settle_id IS DISTINCT FROM s.settle_id`.execute(trx);
      ctx.progress(sums.length);
      return counts;
    });
  },
});

/**
 * Recomputes one agent's CALCULATED settle row of a month outside a run (an approved correction booked into
 * it), keeping its run id. false when the row does not exist or is locked: the next run or nothing counts it.
 */
export async function refreshSettleRow(trx: Trx, settleMonth: string, agentId: number): Promise<boolean> {
  const existing = await trx
    .selectFrom('settle_master')
    .select(['run_id', 'status'])
    .where('agent_id', '=', agentId)
    .where('settle_month', '=', settleMonth)
    .executeTakeFirst();
  if (!existing || existing.status !== 'CALCULATED') return false;
  const config = await loadSettlementConfig(trx);
  const range = { from: agentId, to: agentId };
  const sums = await loadSums(trx, settleMonth, agentId, agentId, existing.run_id, ledgerSources(settleMonth, range));
  const rows = sums.map((s) => settleRowOf(existing.run_id, config.taxRate, s));
  return (await upsertSettleRows(trx, { settleMonth, runId: existing.run_id }, rows)) > 0;
}
