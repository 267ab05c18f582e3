import { sql, type Selectable } from 'kysely';
import type { Db, IncentiveResultTable, IncentiveResultStatus } from '@csp/db';
import { calcIncentive, formatMoney, formatRate } from '@csp/domain';
import { AppError, notFound, writeChangeLog, type ChangeLogEntry } from '@csp/service-kit';
import { assertMonthOpen, inTransaction, lockMonthShared, type Executor } from '../period-closes/month-guard.js';
import { lockProgram, lockResultsOfProgram, measureAgents, tiersOf } from './incentive.repository.js';
import { MENU_PAYMENT } from './incentive-result.resource.js';

type ResultRow = Selectable<IncentiveResultTable>;

/** Results a recalculation replaces (or deletes when the agent no longer reaches a tier). */
const REPLACEABLE: readonly IncentiveResultStatus[] = ['CALCULATED', 'REJECTED'];
const CHUNK = 1000;

export interface CalculationCounts {
  programId: number;
  programCode: string;
  settleMonth: string;
  /** agents with a figure in the period */
  measured: number;
  /** agents reaching a tier */
  qualified: number;
  created: number;
  updated: number;
  unchanged: number;
  /** CALCULATED/REJECTED rows of agents that no longer reach a tier */
  deleted: number;
  /** PENDING_APPROVAL, APPROVED and CANCELLED rows: never touched by a recalculation */
  kept: number;
  /** sum of the amounts of CALCULATED rows written by this calculation (created + updated + unchanged) */
  calculatedAmount: string;
}

export interface CalculationResult {
  counts: CalculationCounts;
  changes: ChangeLogEntry[];
}

interface Computed {
  agentId: number;
  measured: string;
  tierNo: number;
  amount: string;
  basis: Record<string, unknown>;
}

/**
 * Calculates an ACTIVE program (B001 otherwise, and when its pay month is closed): measures every agent
 * over the program's period, gives each the highest tier its figure reaches (domain calcIncentive) and
 * writes incentive_result rows with settle_month = pay month. Idempotent: a recalculation replaces
 * CALCULATED and REJECTED rows (deleting those of agents that no longer qualify) and never touches
 * PENDING_APPROVAL, APPROVED or CANCELLED ones; a row whose figures did not change is left as it is.
 */
export async function calculateProgram(
  db: Executor,
  programId: number,
  by: { userId: number | null; runId?: number | undefined },
): Promise<CalculationResult> {
  return inTransaction(db, async (trx) => {
    const program = await lockProgram(trx, programId);
    if (!program) throw notFound(`Incentive program ${programId}`);
    if (program.status !== 'ACTIVE') {
      throw new AppError('ALREADY_CONFIRMED', `Incentive program ${programId} is ${program.status}; only ACTIVE programs are calculated`);
    }
    await lockMonthShared(trx, program.pay_month);
    await assertMonthOpen(trx, program.pay_month, 'an incentive calculation');

    const tiers = (await tiersOf(trx, programId)).map((t) => ({
      tierNo: t.tier_no,
      threshold: t.threshold,
      rewardAmount: t.reward_amount,
      rewardPct: t.reward_pct,
    }));
    const measured = await measureAgents(trx, program.metric, program.period_from, program.period_to);
    const computed = new Map<number, Computed>();
    for (const m of measured) {
      const outcome = calcIncentive(program.reward_type, tiers, m.measured);
      if (!outcome) continue;
      const { tier, amount } = outcome;
      computed.set(m.agentId, {
        agentId: m.agentId,
        measured: formatMoney(m.measured),
        tierNo: tier.tierNo,
        amount: formatMoney(amount),
        basis: {
          metric: program.metric,
          periodFrom: program.period_from,
          periodTo: program.period_to,
          measured: formatMoney(m.measured),
          rewardType: program.reward_type,
          tierNo: tier.tierNo,
          threshold: formatMoney(tier.threshold),
          ...(program.reward_type === 'FIXED' ? { rewardAmount: formatMoney(tier.rewardAmount!) } : { rewardPct: formatRate(tier.rewardPct!) }),
          amount: formatMoney(amount),
          ...(by.runId !== undefined ? { runId: by.runId } : {}),
        },
      });
    }

    const existing = new Map((await lockResultsOfProgram(trx, programId)).map((r) => [r.agent_id, r]));
    const inserts: Computed[] = [];
    const updates: Array<{ row: ResultRow; next: Computed }> = [];
    const deletes: ResultRow[] = [];
    let unchanged = 0;
    let kept = 0;
    for (const c of computed.values()) {
      const row = existing.get(c.agentId);
      if (!row) inserts.push(c);
      else if (!REPLACEABLE.includes(row.status)) kept++;
      else if (
        row.status === 'CALCULATED' &&
        row.settle_month === program.pay_month &&
        formatMoney(row.measured_value) === c.measured &&
        row.tier_no === c.tierNo &&
        formatMoney(row.amount) === c.amount
      )
        unchanged++;
      else updates.push({ row, next: c });
    }
    for (const row of existing.values()) {
      if (computed.has(row.agent_id)) continue;
      if (REPLACEABLE.includes(row.status)) deletes.push(row);
      else kept++;
    }

    const changes: ChangeLogEntry[] = [];
    const log = (recordId: number, action: ChangeLogEntry['action'], before?: unknown, after?: unknown) =>
      changes.push({ menuCode: MENU_PAYMENT, tableName: 'incentive_result', recordId, action, before, after });

    for (let i = 0; i < inserts.length; i += CHUNK) {
      const rows = await trx
        .insertInto('incentive_result')
        .values(
          inserts.slice(i, i + CHUNK).map((c) => ({
            program_id: programId,
            agent_id: c.agentId,
            settle_month: program.pay_month,
            measured_value: c.measured,
            tier_no: c.tierNo,
            amount: c.amount,
            calc_basis: JSON.stringify(c.basis),
            created_by: by.userId,
            updated_by: by.userId,
          })),
        )
        .returningAll()
        .execute();
      for (const r of rows) log(r.result_id, 'CREATE', undefined, r);
    }
    for (let i = 0; i < updates.length; i += CHUNK) {
      const chunk = updates.slice(i, i + CHUNK);
      const values = JSON.stringify(
        chunk.map(({ row, next }) => ({ result_id: row.result_id, measured_value: next.measured, tier_no: next.tierNo, amount: next.amount, calc_basis: next.basis })),
      );
      const { rows } = await sql<ResultRow>`
        UPDATE incentive_result r
           SET settle_month = ${program.pay_month}, measured_value = x.measured_value, tier_no = x.tier_no, amount = x.amount,
               calc_basis = x.calc_basis, status = 'CALCULATED', approval_request_id = NULL, approved_by = NULL,
               approved_at = NULL, reject_reason = NULL, updated_by = ${by.userId}, updated_at = now(), version = r.version + 1
          FROM jsonb_to_recordset(${values}::jsonb)
               AS x(result_id bigint, measured_value numeric, tier_no integer, amount numeric, calc_basis jsonb)
         WHERE r.result_id = x.result_id
        RETURNING r.*`.execute(trx);
      const before = new Map(chunk.map(({ row }) => [row.result_id, row]));
      for (const r of rows) log(r.result_id, 'UPDATE', before.get(Number(r.result_id)), r);
    }
    if (deletes.length > 0) {
      await trx
        .deleteFrom('incentive_result')
        .where(
          'result_id',
          'in',
          deletes.map((r) => r.result_id),
        )
        .execute();
      for (const r of deletes) log(r.result_id, 'DELETE', r);
    }

    const total = await trx
      .selectFrom('incentive_result')
      .select(sql<string>`coalesce(sum(amount), 0)::text`.as('total'))
      .where('program_id', '=', programId)
      .where('status', '=', 'CALCULATED')
      .executeTakeFirstOrThrow();
    return {
      counts: {
        programId,
        programCode: program.program_code,
        settleMonth: program.pay_month,
        measured: measured.length,
        qualified: computed.size,
        created: inserts.length,
        updated: updates.length,
        unchanged,
        deleted: deletes.length,
        kept,
        calculatedAmount: formatMoney(total.total),
      },
      changes,
    };
  });
}

/**
 * The monthly run's entry (called by the run for its settle month): calculates every ACTIVE program whose
 * pay month is `settleMonth`, one transaction per program, each change logged in data_change_log with
 * request id `run-<runId>` in that transaction. Returns the counts per program (program id order).
 */
export async function calculateIncentivesDueIn(db: Db, settleMonth: string, runId: number): Promise<CalculationCounts[]> {
  const programs = await db
    .selectFrom('incentive_program')
    .select('program_id')
    .where('status', '=', 'ACTIVE')
    .where('pay_month', '=', settleMonth)
    .orderBy('program_id')
    .execute();
  const out: CalculationCounts[] = [];
  for (const { program_id } of programs) {
    out.push(
      await db.transaction().execute(async (trx) => {
        const result = await calculateProgram(trx, program_id, { userId: null, runId });
        await writeChangeLog(trx, result.changes, { userId: null, requestId: `run-${runId}` });
        return result.counts;
      }),
    );
  }
  return out;
}
