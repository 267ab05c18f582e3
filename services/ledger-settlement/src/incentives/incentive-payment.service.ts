import { sql } from 'kysely';
import type { IncentiveResultStatus } from '@csp/db';
import { writeContractEvent } from '@csp/events';
import { AppError, invalid, money, notFound, readSystemConfig, type ChangeLogEntry } from '@csp/service-kit';
import { assertMonthOpen, inTransaction, lockMonthShared, type Executor } from '../period-closes/month-guard.js';
import { lockResults } from './incentive.repository.js';
import { MENU_PAYMENT } from './incentive-result.resource.js';

const DEFAULT_LINE = 'INCENTIVE_DEFAULT';
/** What can be put up for approval or cancelled. */
const OPEN_STATUSES: readonly IncentiveResultStatus[] = ['CALCULATED', 'REJECTED'];

export interface PaymentMoveResult {
  ids: number[];
  changes: ChangeLogEntry[];
}

/** The incentive_result row of a locked result (for the change log). */
function withoutProgramCode<T extends { program_code: string }>(row: T): Omit<T, 'program_code'> {
  const copy: Partial<T> = { ...row };
  delete copy.program_code;
  return copy as Omit<T, 'program_code'>;
}

/** Locks the results (id order): E411 on an unknown id; B001 unless each is CALCULATED or REJECTED and its month open. */
async function lockOpenResults(trx: Executor, ids: readonly number[], what: string) {
  const rows = await lockResults(trx, ids);
  const found = new Set(rows.map((r) => r.result_id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw invalid(`ids.${missing}`, `incentive result ${ids[missing]} does not exist`);
  for (const r of rows) {
    if (!OPEN_STATUSES.includes(r.status)) {
      throw new AppError('ALREADY_CONFIRMED', `Incentive result ${r.result_id} is ${r.status}; only CALCULATED or REJECTED results can be ${what}`);
    }
  }
  for (const month of [...new Set(rows.map((r) => r.settle_month))].sort()) {
    await lockMonthShared(trx, month);
    await assertMonthOpen(trx, month, `${what} incentive results`);
  }
  return rows;
}

/**
 * Puts CALCULATED or REJECTED results up for approval: each becomes PENDING_APPROVAL and asks the approval
 * workflow (APPROVAL_REQUESTED, target INCENTIVE, through the outbox in the same transaction) for a request
 * on `approvalLineCode` (default: system_config INCENTIVE_APPROVAL_LINE, else INCENTIVE_DEFAULT). The
 * decision comes back as APPROVAL_DECIDED (incentive-events.ts).
 */
export async function submitResults(
  db: Executor,
  input: { ids: readonly number[]; userId: number; approvalLineCode?: string | undefined },
): Promise<PaymentMoveResult & { approvalLineCode: string }> {
  const ids = [...new Set(input.ids)];
  return inTransaction(db, async (trx) => {
    const rows = await lockOpenResults(trx, ids, 'submitted');
    const line = input.approvalLineCode ?? ((await readSystemConfig(trx, ['INCENTIVE_APPROVAL_LINE'])).get('INCENTIVE_APPROVAL_LINE')?.trim() || DEFAULT_LINE);
    const changes: ChangeLogEntry[] = [];
    for (const before of rows) {
      const beforeRow = withoutProgramCode(before);
      const after = await trx
        .updateTable('incentive_result')
        .set({
          status: 'PENDING_APPROVAL',
          approval_request_id: null,
          approved_by: null,
          approved_at: null,
          reject_reason: null,
          updated_by: input.userId,
          updated_at: sql`now()`,
          version: sql`version + 1`,
        })
        .where('result_id', '=', before.result_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeContractEvent(trx, 'APPROVAL_REQUESTED', {
        targetType: 'INCENTIVE',
        targetId: before.result_id,
        approvalLineCode: line,
        requestedBy: input.userId,
        title: `Incentive ${before.program_code} #${before.result_id} (agent ${before.agent_id}, ${before.settle_month}, ${money(before.amount)})`,
      });
      changes.push({ menuCode: MENU_PAYMENT, tableName: 'incentive_result', recordId: before.result_id, action: 'UPDATE', before: beforeRow, after: { ...after, approvalLineCode: line } });
    }
    return { ids, approvalLineCode: line, changes };
  });
}

/** CALCULATED or REJECTED -> CANCELLED (not paid; a recalculation leaves it so). */
export async function cancelResult(
  db: Executor,
  input: { id: number; userId: number | null; reason?: string | undefined },
): Promise<PaymentMoveResult> {
  return inTransaction(db, async (trx) => {
    const exists = await trx.selectFrom('incentive_result').select('result_id').where('result_id', '=', input.id).executeTakeFirst();
    if (!exists) throw notFound(`Incentive result ${input.id}`);
    const [locked] = await lockOpenResults(trx, [input.id], 'cancelled');
    const beforeRow = withoutProgramCode(locked!);
    const after = await trx
      .updateTable('incentive_result')
      .set({ status: 'CANCELLED', updated_by: input.userId, updated_at: sql`now()`, version: sql`version + 1` })
      .where('result_id', '=', input.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      ids: [input.id],
      changes: [
        { menuCode: MENU_PAYMENT, tableName: 'incentive_result', recordId: input.id, action: 'UPDATE', before: beforeRow, after: { ...after, cancelReason: input.reason ?? null } },
      ],
    };
  });
}
