import { defineStep, type Trx } from '@csp/batch';
import { calcSettlementWithCorrection, DomainError, formatMoney } from '@csp/domain';
import { sql } from 'kysely';
import { planAgentChunks } from '../calc/agent-chunks.js';
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
}

async function loadSums(trx: Trx, month: string, from: number, to: number): Promise<AgentSums[]> {
  const { rows } = await sql<AgentSums>`
    WITH r AS (SELECT agent_id, sum(agent_amount) AS s, count(*) AS n FROM recruit_ledger
               WHERE settle_month = ${month} AND agent_id BETWEEN ${from} AND ${to} GROUP BY agent_id),
         m AS (SELECT agent_id, sum(agent_amount) AS s, count(*) AS n FROM maintain_ledger
               WHERE settle_month = ${month} AND agent_id BETWEEN ${from} AND ${to} GROUP BY agent_id),
         o AS (SELECT to_agent_id AS agent_id, sum(override_amount) AS s, count(*) AS n FROM override_settle
               WHERE settle_month = ${month} AND to_agent_id BETWEEN ${from} AND ${to} GROUP BY to_agent_id),
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
           coalesce(r.s, 0)::text AS recruit, coalesce(r.n, 0)::int AS recruit_n,
           coalesce(m.s, 0)::text AS maintain, coalesce(m.n, 0)::int AS maintain_n,
           coalesce(o.s, 0)::text AS override, coalesce(o.n, 0)::int AS override_n,
           coalesce(e.plus, 0)::text AS plus, coalesce(e.plus_n, 0)::int AS plus_n,
           coalesce(e.minus, 0)::text AS minus, coalesce(e.minus_n, 0)::int AS minus_n,
           coalesce(c.s, 0)::text AS chargeback, coalesce(c.n, 0)::int AS chargeback_n,
           coalesce(k.s, 0)::text AS correction, coalesce(k.n, 0)::int AS correction_n
    FROM agent a
    LEFT JOIN r ON r.agent_id = a.agent_id
    LEFT JOIN m ON m.agent_id = a.agent_id
    LEFT JOIN o ON o.agent_id = a.agent_id
    LEFT JOIN e ON e.agent_id = a.agent_id
    LEFT JOIN c ON c.agent_id = a.agent_id
    LEFT JOIN k ON k.agent_id = a.agent_id
    LEFT JOIN sm ON sm.agent_id = a.agent_id
    WHERE a.agent_id BETWEEN ${from} AND ${to}
      AND (a.status = 'ACTIVE' OR r.n IS NOT NULL OR m.n IS NOT NULL OR o.n IS NOT NULL OR e.agent_id IS NOT NULL
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
  gross: string;
  tax: string;
  net: string;
  calcBasis: string;
}

function settleRowOf(runId: number | null, taxRate: string, s: AgentSums): SettleRow {
  const a = calcSettlementWithCorrection(
    {
      recruit: s.recruit,
      maintain: s.maintain,
      override: s.override,
      exceptionPlus: s.plus,
      exceptionMinus: s.minus,
      chargeback: s.chargeback,
      correction: s.correction,
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
      override_total, chargeback_total, correction_total, gross_amount, tax_amount, net_amount, calc_basis,
      settle_month, run_id, status, calc_date)
    SELECT u.*, ${target.settleMonth}::char(6), ${target.runId}::bigint, 'CALCULATED', now() FROM unnest(
      ${col('agentId')}::bigint[], ${col('recruit')}::numeric[], ${col('maintain')}::numeric[],
      ${col('exceptionPlus')}::numeric[], ${col('exceptionMinus')}::numeric[], ${col('override')}::numeric[],
      ${col('chargeback')}::numeric[], ${col('correction')}::numeric[], ${col('gross')}::numeric[], ${col('tax')}::numeric[], ${col('net')}::numeric[],
      ${col('calcBasis')}::jsonb[]) AS u
    ON CONFLICT (agent_id, settle_month) DO UPDATE SET
      recruit_total = EXCLUDED.recruit_total, maintain_total = EXCLUDED.maintain_total,
      exception_plus = EXCLUDED.exception_plus, exception_minus = EXCLUDED.exception_minus,
      override_total = EXCLUDED.override_total, chargeback_total = EXCLUDED.chargeback_total,
      correction_total = EXCLUDED.correction_total,
      gross_amount = EXCLUDED.gross_amount, tax_amount = EXCLUDED.tax_amount, net_amount = EXCLUDED.net_amount,
      calc_basis = EXCLUDED.calc_basis, run_id = EXCLUDED.run_id, calc_date = EXCLUDED.calc_date,
      version = t.version + 1, updated_at = now()
    WHERE t.status = 'CALCULATED'
    RETURNING settle_id`.execute(trx);
  return written.length;
}

export const aggregate = defineStep({
  name: 'aggregate',
  plan: planAgentChunks,
  run: async (ctx, chunk) => {
    if (!chunk) throw new Error('aggregate runs in chunks');
    const config = await perRun(ctx, 'settlement-config', () => loadSettlementConfig(ctx.db));
    return ctx.chunkTransaction(async (trx) => {
      const month = ctx.settleMonth;
      const sums = await loadSums(trx, month, chunk.from, chunk.to);
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
  const sums = await loadSums(trx, settleMonth, agentId, agentId);
  const rows = sums.map((s) => settleRowOf(existing.run_id, config.taxRate, s));
  return (await upsertSettleRows(trx, { settleMonth, runId: existing.run_id }, rows)) > 0;
}
