import { sql } from 'kysely';
import type { Receiver, ReceiveInput, ReceiveResult } from './receiver.js';

/** batch_id stamped on manually uploaded rows that were not tagged by their upload. */
export function runBatchId(runId: number): string {
  return `RUN-${runId}`;
}

/**
 * MANUAL: the rows were stored by the upload (/api/receive/upload or the spreadsheet import) before
 * the run. Receiving counts them and stamps rows without a batch with RUN-<run id>.
 */
export const manualReceiver: Receiver = {
  method: 'MANUAL',
  async receive({ trx, runId, settleMonth, target }: ReceiveInput): Promise<ReceiveResult> {
    await sql`
      UPDATE raw_commission_data SET batch_id = ${runBatchId(runId)}, updated_at = now()
      WHERE company_code = ${target.companyCode} AND settle_month = ${settleMonth} AND batch_id IS NULL`.execute(
      trx,
    );
    const { rows } = await sql<{ records: number; pending: number }>`
      SELECT count(*)::int AS records, count(*) FILTER (WHERE parse_status = 'PENDING')::int AS pending
      FROM raw_commission_data
      WHERE company_code = ${target.companyCode} AND settle_month = ${settleMonth}`.execute(trx);
    return rows[0] ?? { records: 0, pending: 0 };
  },
};
