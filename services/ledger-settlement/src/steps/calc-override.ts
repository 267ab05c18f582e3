import { defineStep, type StepContext, type Trx } from '@csp/batch';
import {
  calcOverrides,
  DomainError,
  formatMoney,
  formatRate,
  lastDayOfMonth,
  sum,
  toDec,
  type Dec,
  type OverrideRow,
} from '@csp/domain';
import { analyzeMonthPartitions } from '@csp/db';
import { sql } from 'kysely';
import { planAgentChunks } from '../calc/agent-chunks.js';
import { lockedAgents } from '../calc/locked-agents.js';
import { monthByAgent, type ByAgent } from '../calc/month-by-agent.js';
import { overrideSetupOf, type OverrideSetup } from '../calc/override-index.js';

interface OverrideInsert {
  fromAgentId: number;
  toAgentId: number;
  overrideRuleId: number;
  baseAmount: string;
  overridePct: string;
  overrideAmount: string;
  capped: boolean;
  calcBasis: string;
}

interface BaseRow {
  agent_id: number;
  insurance_type: string | null;
  base: string;
}

/**
 * Lower agents' ledger sums of the month by insurance type (sum of numeric: exact), for every agent in one pass
 * per run (see monthByAgent): each chunk slices its agents.
 */
function monthBases(ctx: StepContext): Promise<ByAgent<BaseRow>> {
  return monthByAgent(
    ctx,
    'override-bases',
    sql<BaseRow>`
      SELECT agent_id, insurance_type, sum(agent_amount)::text AS base FROM (
        SELECT agent_id, insurance_type, agent_amount FROM recruit_ledger WHERE settle_month = ${ctx.settleMonth}
        UNION ALL
        SELECT agent_id, insurance_type, agent_amount FROM maintain_ledger WHERE settle_month = ${ctx.settleMonth}
      ) l GROUP BY agent_id, insurance_type ORDER BY agent_id, insurance_type`,
  );
}

function basesByAgent(rows: readonly BaseRow[]): Map<number, Map<string | null, Dec>> {
  const byAgent = new Map<number, Map<string | null, Dec>>();
  for (const r of rows) {
    let types = byAgent.get(r.agent_id);
    if (!types) byAgent.set(r.agent_id, (types = new Map()));
    types.set(r.insurance_type, toDec(r.base, 'base'));
  }
  return byAgent;
}

/**
 * Step 7 for one lower agent: rules without an insurance-type condition on the whole base, conditioned rules
 * on the base of that insurance type (DECISIONS: receiver, pct, cap are the domain's).
 */
function overridesOf(setup: OverrideSetup, agentId: number, types: Map<string | null, Dec>, date: string) {
  const out: { row: OverrideRow; cond: string | null }[] = [];
  const total = sum([...types.values()]);
  for (const row of calcOverrides(setup.plain, { agentId, base: total, date, insuranceType: null }).rows) {
    out.push({ row, cond: null });
  }
  for (const [type, base] of types) {
    if (type === null || !setup.conditionedTypes.has(type)) continue;
    for (const row of calcOverrides(setup.conditioned, { agentId, base, date, insuranceType: type }).rows) {
      out.push({ row, cond: type });
    }
  }
  return out;
}

function toInsert(ctx: StepContext, date: string, row: OverrideRow, cond: string | null): OverrideInsert {
  return {
    fromAgentId: row.fromAgentId,
    toAgentId: row.toAgentId,
    overrideRuleId: row.basis.overrideId,
    baseAmount: formatMoney(row.baseAmount),
    overridePct: formatRate(row.overridePct),
    overrideAmount: formatMoney(row.overrideAmount),
    capped: row.capped,
    calcBasis: JSON.stringify({
      runId: ctx.runId,
      date,
      overrideId: row.basis.overrideId,
      fromGrade: row.basis.fromGrade,
      toGrade: row.basis.toGrade,
      overridePct: formatRate(row.overridePct),
      capAmount: row.basis.capAmount,
      insuranceTypeCond: cond,
      uncappedAmount: formatMoney(row.uncappedAmount),
      orgsWalked: row.basis.orgsWalked,
      receiverOrgId: row.basis.receiverOrgId,
    }),
  };
}

async function insertOverrides(trx: Trx, ctx: StepContext, rows: OverrideInsert[]): Promise<number> {
  if (rows.length === 0) return 0;
  const col = <K extends keyof OverrideInsert>(k: K) => rows.map((r) => r[k]);
  const { rows: inserted } = await sql<{ os_id: number }>`
    INSERT INTO override_settle (from_agent_id, to_agent_id, override_rule_id, base_amount, override_pct,
      override_amount, capped, calc_basis, settle_month, run_id)
    SELECT u.*, ${ctx.settleMonth}::char(6), ${ctx.runId}::bigint FROM unnest(
      ${col('fromAgentId')}::bigint[], ${col('toAgentId')}::bigint[], ${col('overrideRuleId')}::bigint[],
      ${col('baseAmount')}::numeric[], ${col('overridePct')}::numeric[], ${col('overrideAmount')}::numeric[],
      ${col('capped')}::boolean[], ${col('calcBasis')}::jsonb[]) AS u
    ON CONFLICT (settle_month, from_agent_id, to_agent_id, override_rule_id) DO NOTHING
    RETURNING os_id`.execute(trx);
  return inserted.length;
}

/**
 * Steps 4-5 have just written the month's ledger rows, which the planner's statistics do not know yet: without
 * fresh statistics the agent-range reads of steps 7-9 walk the (settle_month, agent_id) index row by row
 * (measured on the bench book: 475 ms per agent chunk instead of 297 ms). The month's settle rows too: a run
 * before this one wrote them into a partition never analyzed, and the locked-receiver check of each override
 * row then read all of them through (settle_month, status) instead of the (agent_id, settle_month) key (a
 * re-run of the 1M book's month: calcOverride 38-50 s instead of 4-5 s, 663 ms per 200 agents instead of 0.5).
 */
async function refreshLedgerStatistics(ctx: StepContext): Promise<void> {
  // Only the month's partitions: ANALYZE of the partitioned parents samples every month of history
  // (13.4 s against 1.4 s on a 12-month 1M book), which made this step grow with the years.
  await analyzeMonthPartitions(ctx.db, ['recruit_ledger', 'maintain_ledger', 'settle_master'], ctx.settleMonth);
}

export const calcOverride = defineStep({
  name: 'calcOverride',
  plan: async (ctx) => {
    await refreshLedgerStatistics(ctx);
    return planAgentChunks(ctx);
  },
  run: async (ctx, chunk) => {
    if (!chunk) throw new Error('calcOverride runs in chunks');
    const setup = await overrideSetupOf(ctx);
    const month = ctx.settleMonth;
    const date = lastDayOfMonth(month);
    return ctx.chunkTransaction(async (trx) => {
      const bases = basesByAgent((await monthBases(ctx)).slice(chunk.from, chunk.to));
      const locked = await lockedAgents(trx, month);
      // Replace the month's CALCULATED rows of these lower agents, except rows of locked receivers.
      await sql`
        DELETE FROM override_settle o
        WHERE o.settle_month = ${month} AND o.from_agent_id BETWEEN ${chunk.from} AND ${chunk.to}
          AND o.status = 'CALCULATED'
          AND NOT EXISTS (SELECT 1 FROM settle_master s WHERE s.agent_id = o.to_agent_id AND s.settle_month = o.settle_month
                          AND s.status IN ('CONFIRMED', 'HOLD', 'PAID'))`.execute(trx);
      const counts = { total: 0, success: 0, error: 0, skipped: 0 };
      const inserts: OverrideInsert[] = [];
      for (const [agentId, types] of bases) {
        let rows: { row: OverrideRow; cond: string | null }[];
        try {
          rows = overridesOf(setup, agentId, types, date);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          counts.total++;
          counts.error++;
          ctx.logger.warn({ agentId, code: err.code }, 'override base refused by a domain rule');
          continue;
        }
        for (const { row, cond } of rows) {
          counts.total++;
          if (locked.has(row.toAgentId)) counts.skipped++;
          else inserts.push(toInsert(ctx, date, row, cond));
        }
      }
      const written = await insertOverrides(trx, ctx, inserts);
      counts.success += written;
      counts.skipped += inserts.length - written;
      ctx.progress(bases.size);
      return counts;
    });
  },
});
