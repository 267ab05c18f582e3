import { AppError, notFound } from '@csp/service-kit';
import { sql } from 'kysely';
import type { PaymentTaxDb } from '../db.js';

/**
 * Cancel (spec 3.2: any -> CANCELLED). A PENDING deduction is simply cancelled. An APPLIED one is taken
 * back from its payment while that payment is still PENDING (detail row removed, deduction_amount and
 * net restored); once the payment has gone to the bank it is B001. Cancelling twice is B001.
 */
export async function cancelDeduction(db: PaymentTaxDb, deductionId: number, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('agent_deduction').selectAll().where('deduction_id', '=', deductionId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`Deduction ${deductionId}`);
    if (before.status === 'CANCELLED') throw new AppError('ALREADY_CONFIRMED', `Deduction ${deductionId} is already CANCELLED`);
    let restoredPaymentId: number | null = null;
    if (before.status === 'APPLIED') {
      const detail = await trx
        .selectFrom('payment_deduction_detail as x')
        .innerJoin('payment as p', 'p.payment_id', 'x.payment_id')
        .select(['x.detail_id', 'x.payment_id', 'p.status'])
        .where('x.deduction_id', '=', deductionId)
        .orderBy('x.detail_id', 'desc')
        .forUpdate()
        .executeTakeFirst();
      if (detail && detail.status !== 'PENDING') {
        throw new AppError(
          'ALREADY_CONFIRMED',
          `Deduction ${deductionId} was applied to payment ${detail.payment_id}, which is ${detail.status}: it can no longer be cancelled`,
        );
      }
      if (detail) {
        await sql`
          UPDATE payment p SET deduction_amount = p.deduction_amount - x.amount, net_amount = p.net_amount + x.amount,
            updated_at = now(), updated_by = ${userId}::bigint, version = p.version + 1
          FROM payment_deduction_detail x
          WHERE x.detail_id = ${detail.detail_id} AND p.payment_id = x.payment_id`.execute(trx);
        await trx.deleteFrom('payment_deduction_detail').where('detail_id', '=', detail.detail_id).execute();
        restoredPaymentId = Number(detail.payment_id);
      }
    }
    const after = await trx
      .updateTable('agent_deduction')
      .set({
        status: 'CANCELLED',
        cancelled_at: new Date(),
        updated_at: new Date(),
        updated_by: userId,
        version: sql`version + 1`,
      })
      .where('deduction_id', '=', deductionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after, restoredPaymentId };
  });
}
