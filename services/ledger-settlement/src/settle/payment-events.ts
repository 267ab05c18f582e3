import { writeChangeLog } from '@csp/service-kit';
import { sql, type Transaction } from 'kysely';
import type { Database } from '@csp/db';
import { EventRefusal, type ConsumedEvent, type PaymentSucceeded } from '@csp/events';
import { lockMonthShared } from '../period-closes/month-guard.js';
import { SETTLED_LEDGERS } from './settle.service.js';

/**
 * The ledger rows that follow a paid settlement: the agent's recruit, maintain and other-commission rows and the overrides it
 * receives (the tables whose status has PAID). Chargeback installments have no PAID state and stay CONFIRMED.
 */
const PAID_LEDGERS = SETTLED_LEDGERS.filter((l) => l.fullLife);

/**
 * PAYMENT_SUCCEEDED (payment-tax, DECISIONS "Payments and tax"): the bank paid the settlement, so the settle
 * row and its ledger rows become PAID, inside the consumer's transaction (applied once per event id). The
 * payment is a fact: the move happens whatever the row's state (a CLOSED month included, as the close
 * expects payments after it); a row already PAID stays as it is. One change-log row per applied event.
 */
export async function applyPaymentSucceeded(trx: Transaction<Database>, event: ConsumedEvent<PaymentSucceeded>): Promise<void> {
  const p = event.payload;
  const before = await trx
    .selectFrom('settle_master')
    .select(['settle_id', 'agent_id', 'settle_month', 'status', 'version'])
    .where('settle_id', '=', p.settleId)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw new EventRefusal(`Settlement ${p.settleId} of payment ${p.paymentId} does not exist`);
  if (Number(before.agent_id) !== p.agentId || before.settle_month !== p.settleMonth) {
    throw new EventRefusal(
      `Payment ${p.paymentId} names agent ${p.agentId} and ${p.settleMonth}, but settlement ${p.settleId} is agent ${before.agent_id}, ${before.settle_month}`,
    );
  }
  if (before.status === 'PAID') return;
  // a close of the month (exclusive lock) waits for this move, and the other way round
  await lockMonthShared(trx, before.settle_month);
  await trx
    .updateTable('settle_master')
    .set({ status: 'PAID', updated_by: p.paidBy, updated_at: sql`now()`, version: sql`version + 1` })
    .where('settle_id', '=', p.settleId)
    .execute();
  const ledgerRows: Record<string, number> = {};
  for (const l of PAID_LEDGERS) {
    const byUser = l.byUser ? sql`, updated_by = ${p.paidBy}::bigint` : sql``;
    const result = await sql`
      UPDATE ${sql.table(l.table)} SET status = 'PAID', updated_at = now()${byUser}
       WHERE ${sql.ref(l.agentColumn)} = ${p.agentId} AND settle_month = ${p.settleMonth} AND status <> 'PAID'`.execute(trx);
    ledgerRows[l.table] = Number(result.numAffectedRows ?? 0);
  }
  await writeChangeLog(
    trx,
    [
      {
        menuCode: 'SETTLE_LIST',
        tableName: 'settle_master',
        recordId: p.settleId,
        action: 'UPDATE',
        before: { status: before.status, version: before.version },
        after: { status: 'PAID', paymentId: p.paymentId, eventId: event.eventId, ledgerRows },
      },
    ],
    { userId: p.paidBy, requestId: `event-${event.eventId}` },
  );
}
