import { sql } from 'kysely';
import type { PaymentTaxDb } from '../db.js';

export interface Balance {
  confirmedUnpaid: string;
  outstandingWithdraws: string;
  available: string;
  /** whether `amount` (when given) is above `available` */
  exceeds: boolean;
}

/**
 * An agent's balance for withdraw requests, in SQL (money never in JS numbers): the net of its CONFIRMED
 * settle rows without a SUCCESS payment (PAID ones are paid) minus its withdraws that are open (REQUESTED, APPROVED) or SENT and not yet
 * taken back by a successful payment (the ADVANCE deduction they were booked into).
 */
export async function balanceOf(db: PaymentTaxDb, agentId: number, amount = '0'): Promise<Balance> {
  const { rows } = await sql<{ confirmed: string; outstanding: string }>`
    SELECT
      (SELECT coalesce(sum(s.net_amount), 0) FROM settle_master s WHERE s.agent_id = ${agentId} AND s.status = 'CONFIRMED'
          -- paid already: its PAYMENT_SUCCEEDED event may not have reached ledger-settlement yet
          AND NOT EXISTS (SELECT 1 FROM payment p WHERE p.settle_id = s.settle_id AND p.status = 'SUCCESS')) AS confirmed,
      (SELECT coalesce(sum(w.amount), 0) FROM withdraw_request w
        WHERE w.agent_id = ${agentId}
          AND (w.status IN ('REQUESTED', 'APPROVED')
               OR (w.status = 'SENT' AND NOT EXISTS (
                     SELECT 1 FROM payment_deduction_detail x JOIN payment p ON p.payment_id = x.payment_id
                      WHERE x.deduction_id = w.deduction_id AND p.status = 'SUCCESS')))) AS outstanding`.execute(db);
  const { confirmed, outstanding } = rows[0]!;
  const { rows: cmp } = await sql<{ available: string; exceeds: boolean }>`
    SELECT (${confirmed}::numeric - ${outstanding}::numeric)::numeric(15,2)::text AS available,
           ${amount}::numeric > ${confirmed}::numeric - ${outstanding}::numeric AS exceeds`.execute(db);
  return { confirmedUnpaid: confirmed, outstandingWithdraws: outstanding, available: cmp[0]!.available, exceeds: cmp[0]!.exceeds };
}

export function agentForWithdraw(db: PaymentTaxDb, agentId: number) {
  return db.selectFrom('agent').select(['agent_id', 'agent_name', 'status', 'bank_code', 'account_no']).where('agent_id', '=', agentId).executeTakeFirst();
}

/** An APPROVED withdraw with what the bank needs, locked; undefined when it is not APPROVED or someone else holds it. */
export function lockApproved(db: PaymentTaxDb, withdrawId: number) {
  return db
    .selectFrom('withdraw_request as w')
    .innerJoin('agent as a', 'a.agent_id', 'w.agent_id')
    .select(['w.withdraw_id', 'w.agent_id', 'w.amount', 'w.settle_month', 'w.bank_code', 'w.account_no', 'a.agent_name'])
    .where('w.withdraw_id', '=', withdrawId)
    .where('w.status', '=', 'APPROVED')
    .forUpdate('w')
    .skipLocked()
    .executeTakeFirst();
}

export type ApprovedWithdraw = NonNullable<Awaited<ReturnType<typeof lockApproved>>>;

/** APPROVED withdraws the bank has not yet accepted, oldest first. */
export async function retryCandidates(db: PaymentTaxDb, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('withdraw_request').select('withdraw_id').where('status', '=', 'APPROVED').orderBy('withdraw_id').limit(limit).execute();
  return rows.map((r) => r.withdraw_id);
}
