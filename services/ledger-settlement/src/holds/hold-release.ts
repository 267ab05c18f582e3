import { writeChangeLog } from '@csp/service-kit';
import { sql } from 'kysely';
import { evaluateHoldCondition } from '@csp/domain';
import { applySettleMove } from '../settle/settle.service.js';
import type { Executor } from '../period-closes/month-guard.js';
import { conditionOf, factsOf, holdFacts, type StoredCondition, type StoredFacts } from './hold-condition.js';

interface ActiveHold extends StoredCondition, StoredFacts {
  hold_id: number;
  settle_id: number;
  agent_id: number;
  settle_month: string;
  settle_status: string;
  month_closed: boolean;
}

export interface HoldReleaseCounts {
  /** ACTIVE holds with a condition */
  examined: number;
  released: number;
  /** met but left held: the month is CLOSED */
  blocked: number;
}

/**
 * Every monthly run (step 6, before the chargebacks): the ACTIVE holds whose release condition is met are
 * released (settle row and its ledger rows back to CALCULATED, the hold RELEASED with why and the run),
 * each logged in data_change_log; the others record why they are still held. A hold of a CLOSED month
 * stays (reopen it to release). Runs inside the step's transaction.
 */
export async function releaseHoldsByCondition(
  trx: Executor,
  run: { runId: number; logger?: { info(obj: object, msg: string): void } },
): Promise<HoldReleaseCounts> {
  const f = holdFacts('h');
  const { rows } = await sql<ActiveHold>`
    SELECT h.hold_id, h.settle_id, h.agent_id, h.settle_month, h.condition_type, h.until_date, h.training_year,
           h.training_hours, h.dispute_id, s.status AS settle_status,
           EXISTS (SELECT 1 FROM period_close p WHERE p.settle_month = h.settle_month AND p.status = 'CLOSED') AS month_closed,
           ${f.today} AS fact_today, ${f.license} AS fact_license, ${f.trainingHours} AS fact_training_hours,
           ${f.disputeStatus} AS fact_dispute_status
    FROM settle_hold h JOIN settle_master s ON s.settle_id = h.settle_id
    WHERE h.status = 'ACTIVE' AND h.condition_type <> 'NONE'
    ORDER BY h.hold_id`.execute(trx);
  const counts: HoldReleaseCounts = { examined: rows.length, released: 0, blocked: 0 };
  for (const h of rows) {
    const state = evaluateHoldCondition(conditionOf(h), factsOf(h));
    if (state.met && !h.month_closed && h.settle_status === 'HOLD') {
      const note = `condition met: ${state.because}`;
      const moved = await applySettleMove(
        trx,
        { settleId: h.settle_id, action: 'release', userId: null, release: { kind: 'CONDITION', note, runId: run.runId } },
        { duringRun: true },
      );
      await writeChangeLog(
        trx,
        [
          {
            menuCode: 'SETTLE_LIST',
            tableName: 'settle_master',
            recordId: h.settle_id,
            action: 'UPDATE',
            before: moved.before,
            after: { ...moved.after, ledgerRows: moved.ledgerRows, hold: moved.hold, runId: run.runId },
          },
        ],
        { userId: null, requestId: `run-${run.runId}` },
      );
      run.logger?.info({ holdId: h.hold_id, settleId: h.settle_id, because: state.because }, 'hold released by its condition');
      counts.released++;
      continue;
    }
    if (state.met && h.settle_status !== 'HOLD') {
      // the settle row left HOLD some other way: the hold has nothing left to hold
      await trx
        .updateTable('settle_hold')
        .set({
          status: 'RELEASED',
          released_at: sql`now()`,
          release_kind: 'CONDITION',
          release_note: `condition met: ${state.because}; settlement already ${h.settle_status}`,
          release_run_id: run.runId,
          updated_at: sql`now()`,
          version: sql`version + 1`,
        })
        .where('hold_id', '=', h.hold_id)
        .execute();
      continue;
    }
    if (state.met) counts.blocked++;
    await trx
      .updateTable('settle_hold')
      .set({
        last_checked_at: sql`now()`,
        last_check_note: state.met ? `condition met (${state.because}) but ${h.settle_month} is closed` : state.because,
        updated_at: sql`now()`,
      })
      .where('hold_id', '=', h.hold_id)
      .execute();
  }
  return counts;
}
