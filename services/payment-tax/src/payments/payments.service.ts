import { applyDeductions, formatMoney, shiftSettleMonth, sum, type Dec } from '@csp/domain';
import { writeContractEvent } from '@csp/events';
import { AppError, notFound, type FieldCipher } from '@csp/service-kit';
import { sql } from 'kysely';
import { paymentTaxOf } from '../calc/payment-tax.js';
import { readPaymentTaxRates } from '../common/system-config.js';
import type { PaymentTaxDb } from '../db.js';
import { PaymentRepository, type PaymentTaxUpdate, type TaxablePaymentRow } from './payments.repository.js';
import type { PaymentStatusValue } from './payments.resource.js';

export interface GenerateResult {
  settleMonth: string;
  paymentIds: number[];
  /** Agents left unpaid for want of a usable bank account; generating again after it is added pays them. */
  skipped: SkippedAgent[];
  nextMonth: string;
  carriedForward: Array<{ settleId: number; agentId: number; amount: string; deductionId: number }>;
  carryForwardSkipped: Array<{ settleId: number; agentId: number; amount: string }>;
}

export interface DeductionResult {
  payments: number;
  deductions: number;
  deductionSum: string;
  /** PENDING deductions of the month whose agent has no PENDING payment (left PENDING). */
  leftPending: number;
}

/** Settlements still to pay listed by the month summary (the count is always whole). */
const UNPAID_LISTED = 20;

export interface PaymentMonthSummary {
  /** Live payments of the month (not FAIL); those taxed, with deductions, written to a transfer file. */
  payments: number;
  taxed: number;
  deducted: number;
  transferred: number;
  /** When a live payment of the month was last created or taxed (UTC ISO), null without payments. */
  latestAt: string | null;
  /** CONFIRMED settlements with a positive gross and no live payment: what generate would still pay. */
  unpaid: number;
  /** The first of them; `detail` is why generate skips it (no usable bank account), null when it would pay it. */
  unpaidAgents: Array<{ settleId: number; agentId: number; agentName: string; detail: string | null }>;
}

/** An agent generate did not pay: a missing or unreadable bank account (DECISIONS "Payments and tax"). */
export interface SkippedAgent {
  settleId: number;
  agentId: number;
  agentName: string;
  reason: 'NO_BANK_ACCOUNT';
  detail: string;
}

/** Payments workflows: generate, rule 5 taxes, rule 6 deductions, status moves (DECISIONS "Payments and tax"). */
export class PaymentService {
  constructor(
    private readonly db: PaymentTaxDb,
    private readonly cipher: FieldCipher,
  ) {}

  private accountProblem(bankCode: string | null, accountNo: string | null): string | undefined {
    if (!bankCode?.trim()) return 'no bank code';
    if (!accountNo?.trim()) return 'no account number';
    try {
      if (!this.cipher.decrypt(accountNo).trim()) return 'no account number';
    } catch {
      return 'account number unreadable (not encrypted with this ENCRYPT_KEY)';
    }
    return undefined;
  }

  /**
   * Where the month's payments stand (the cockpit): counts of the live payments, and the settlements still to
   * pay with the reason generate leaves each unpaid (after a generate: exactly the agents it skipped).
   */
  async monthSummary(settleMonth: string, agentId?: number | null): Promise<PaymentMonthSummary> {
    const { unpaidList, ...counts } = await new PaymentRepository(this.db).monthSummary(settleMonth, UNPAID_LISTED, agentId);
    return {
      ...counts,
      unpaidAgents: unpaidList.map((s) => ({
        settleId: Number(s.settle_id),
        agentId: Number(s.agent_id),
        agentName: s.agent_name,
        detail: this.accountProblem(s.bank_code, s.account_no) ?? null,
      })),
    };
  }

  /**
   * One PENDING payment per CONFIRMED settlement of the month with a positive gross and no live payment
   * (amount = gross, bank details of the agent), and the negative-gross carry-forward, in one transaction.
   * An agent without a usable bank account is skipped and listed; the others are paid.
   */
  async generate(settleMonth: string, userId: number | null): Promise<GenerateResult> {
    const nextMonth = shiftSettleMonth(settleMonth, 1);
    return this.db.transaction().execute(async (trx) => {
      const repo = new PaymentRepository(trx);
      const payable = await repo.payableSettlements(settleMonth);
      const skipped: SkippedAgent[] = [];
      const payableIds: number[] = [];
      for (const s of payable) {
        const problem = this.accountProblem(s.bank_code, s.account_no);
        if (problem) {
          skipped.push({
            settleId: Number(s.settle_id),
            agentId: Number(s.agent_id),
            agentName: s.agent_name,
            reason: 'NO_BANK_ACCOUNT',
            detail: problem,
          });
        } else payableIds.push(Number(s.settle_id));
      }
      const paymentIds = await repo.insertPayments(settleMonth, payableIds, userId);
      const carried = await repo.carryNegativeGross(settleMonth, nextMonth, userId);
      return {
        settleMonth,
        paymentIds,
        skipped,
        nextMonth,
        carriedForward: carried
          .filter((c) => c.deduction_id !== null)
          .map((c) => ({
            settleId: Number(c.settle_id),
            agentId: Number(c.agent_id),
            amount: formatMoney(c.amount),
            deductionId: Number(c.deduction_id),
          })),
        carryForwardSkipped: carried
          .filter((c) => c.deduction_id === null)
          .map((c) => ({ settleId: Number(c.settle_id), agentId: Number(c.agent_id), amount: formatMoney(c.amount) })),
      };
    });
  }

  private taxUpdates(rows: readonly TaxablePaymentRow[], rates: Awaited<ReturnType<typeof readPaymentTaxRates>>): PaymentTaxUpdate[] {
    return rows.map((r) => {
      const tax = paymentTaxOf(
        { amount: r.amount, taxType: r.tax_type, vatType: r.vat_type, deduction: r.deduction_amount },
        rates,
      );
      return {
        paymentId: Number(r.payment_id),
        incomeTax: formatMoney(tax.incomeTax),
        localTax: formatMoney(tax.localTax),
        vat: formatMoney(tax.vat),
        net: formatMoney(tax.net),
      };
    });
  }

  /** Rule 5 on one payment; only a PENDING payment can be (re)taxed (else B001). */
  async calculateTax(paymentId: number, userId: number | null) {
    return this.db.transaction().execute(async (trx) => {
      const repo = new PaymentRepository(trx);
      const [row] = await repo.lockTaxable({ paymentId });
      if (!row) throw notFound(`Payment ${paymentId}`);
      if (row.status !== 'PENDING') {
        throw new AppError(
          'ALREADY_CONFIRMED',
          `Payment ${paymentId} is ${row.status}: taxes can only be calculated while it is PENDING`,
        );
      }
      const [update] = this.taxUpdates([row], await readPaymentTaxRates(trx));
      await repo.writeTaxes([update!], userId);
      return { before: row, after: update! };
    });
  }

  /** Rule 5 on every PENDING payment of the month, in one transaction. */
  async calculateTaxes(settleMonth: string, userId: number | null): Promise<PaymentTaxUpdate[]> {
    return this.db.transaction().execute(async (trx) => {
      const repo = new PaymentRepository(trx);
      const rows = await repo.lockTaxable({ settleMonth, status: 'PENDING' });
      const updates = this.taxUpdates(rows, await readPaymentTaxRates(trx));
      await repo.writeTaxes(updates, userId);
      return updates;
    });
  }

  /**
   * Rule 6 for PENDING payments (one, or every PENDING payment of a month): the PENDING deductions of the
   * payment's agent and month are summed by the domain, written as detail rows and become APPLIED; the
   * payment's deduction_amount grows by the sum and net = currentNet - sum. One transaction. When an agent
   * has several PENDING payments in the month, the oldest takes the deductions.
   */
  async applyDeductions(
    scope: { paymentId: number } | { settleMonth: string },
    userId: number | null,
  ): Promise<DeductionResult & { paymentIds: number[] }> {
    return this.db.transaction().execute(async (trx) => {
      const repo = new PaymentRepository(trx);
      let payments: TaxablePaymentRow[];
      let settleMonth: string;
      if ('paymentId' in scope) {
        const locked = await repo.lockPayment(scope.paymentId);
        if (!locked) throw notFound(`Payment ${scope.paymentId}`);
        if (locked.status !== 'PENDING') {
          throw new AppError(
            'ALREADY_CONFIRMED',
            `Payment ${scope.paymentId} is ${locked.status}: deductions can only be applied while it is PENDING`,
          );
        }
        payments = await repo.lockTaxable({ paymentId: scope.paymentId });
        settleMonth = locked.settle_month;
      } else {
        settleMonth = scope.settleMonth;
        payments = await repo.lockTaxable({ settleMonth, status: 'PENDING' });
      }
      const byAgent = new Map<number, TaxablePaymentRow>();
      for (const p of payments) if (!byAgent.has(Number(p.agent_id))) byAgent.set(Number(p.agent_id), p);
      const pending = await repo.lockPendingDeductions(settleMonth, [...byAgent.keys()]);
      const deductionsOf = new Map<number, typeof pending>();
      for (const d of pending) {
        const list = deductionsOf.get(Number(d.agent_id)) ?? [];
        list.push(d);
        deductionsOf.set(Number(d.agent_id), list);
      }

      const details: Array<{ paymentId: number; deductionId: number; amount: string }> = [];
      const updated: Array<{ paymentId: number; added: string; net: string }> = [];
      const sums: Dec[] = [];
      for (const [agentId, payment] of byAgent) {
        const rows = deductionsOf.get(agentId);
        if (!rows?.length) continue;
        const result = applyDeductions(
          payment.net_amount,
          rows.map((d) => ({ deductionId: Number(d.deduction_id), amount: d.amount, status: d.status })),
        );
        if (result.applied.length === 0) continue;
        const paymentId = Number(payment.payment_id);
        for (const a of result.applied) details.push({ paymentId, deductionId: a.deductionId, amount: formatMoney(a.amount) });
        updated.push({ paymentId, added: formatMoney(result.deductionSum), net: formatMoney(result.net) });
        sums.push(result.deductionSum);
      }
      await repo.writeDeductions(details, updated, userId);
      const leftPending = 'settleMonth' in scope ? await this.countPendingDeductions(trx, settleMonth) : 0;
      return {
        payments: updated.length,
        deductions: details.length,
        deductionSum: formatMoney(sum(sums)),
        leftPending,
        paymentIds: updated.map((u) => u.paymentId),
      };
    });
  }

  private async countPendingDeductions(trx: PaymentTaxDb, settleMonth: string): Promise<number> {
    const row = await trx
      .selectFrom('agent_deduction')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('settle_month', '=', settleMonth)
      .where('status', '=', 'PENDING')
      .executeTakeFirstOrThrow();
    return row.n;
  }

  /**
   * Status update (DECISIONS): SENT -> SUCCESS writes PAYMENT_SUCCEEDED to the outbox in this transaction;
   * ledger-settlement, which owns the settlement, moves it to PAID when it applies the event. SENT -> FAIL
   * keeps it CONFIRMED so it can be paid again, and the deductions applied to the failed payment go back to
   * PENDING for the next payment. Any other move is B001.
   */
  async updateStatus(
    paymentId: number,
    body: { status: PaymentStatusValue; resultCode?: string | null | undefined; resultMsg?: string | null | undefined },
    userId: number | null,
  ) {
    return this.db.transaction().execute(async (trx) => {
      const before = await new PaymentRepository(trx).lockPayment(paymentId);
      if (!before) throw notFound(`Payment ${paymentId}`);
      const to = body.status;
      if (before.status !== 'SENT' || (to !== 'SUCCESS' && to !== 'FAIL')) {
        const why =
          before.status === 'SENT'
            ? `a SENT payment becomes SUCCESS or FAIL, not ${to}`
            : before.status === 'PENDING'
              ? 'a PENDING payment becomes SENT only through the transfer file'
              : `payment ${paymentId} is already ${before.status}`;
        throw new AppError('ALREADY_CONFIRMED', `Status ${before.status} -> ${to} refused: ${why}`);
      }
      const after = await trx
        .updateTable('payment')
        .set({
          status: to,
          result_code: body.resultCode ?? null,
          result_msg: body.resultMsg ?? null,
          updated_at: new Date(),
          updated_by: userId,
          version: sql`version + 1`,
        })
        .where('payment_id', '=', paymentId)
        .returningAll()
        .executeTakeFirstOrThrow();
      let paidEventId: number | null = null;
      let deductionsReleased = 0;
      if (to === 'SUCCESS' && before.settle_id !== null) {
        // The settlement is ledger-settlement's: it learns of the success through the outbox (exactly once).
        paidEventId = await writeContractEvent(trx, 'PAYMENT_SUCCEEDED', {
          paymentId: Number(after.payment_id),
          settleId: Number(before.settle_id),
          agentId: Number(after.agent_id),
          settleMonth: after.settle_month,
          amount: after.amount,
          resultCode: after.result_code,
          paidBy: userId,
          paidAt: after.updated_at.toISOString(),
        });
      }
      if (to === 'FAIL') {
        const released = await sql`
          UPDATE agent_deduction d SET status = 'PENDING', applied_at = NULL, updated_at = now(),
            updated_by = ${userId}::bigint, version = d.version + 1
          FROM payment_deduction_detail x
          WHERE x.payment_id = ${paymentId} AND x.deduction_id = d.deduction_id AND d.status = 'APPLIED'`.execute(trx);
        deductionsReleased = Number(released.numAffectedRows ?? 0);
      }
      return { before, after, paidEventId, deductionsReleased };
    });
  }
}
