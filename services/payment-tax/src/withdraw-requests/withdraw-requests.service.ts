import { sql, type Transaction } from 'kysely';
import type { Database } from '@csp/db';
import { BankTimeoutError, BankTransferError, type BankAdapter } from '@csp/adapters';
import {
  defineConsumer,
  EventRefusal,
  writeContractEvent,
  type ApprovalDecided,
  type ConsumedEvent,
  type EventConsumer,
  type LogLike,
} from '@csp/events';
import { invalid, money, readSystemConfig, type FieldCipher } from '@csp/service-kit';
import { todayInKorea } from '../calc/business-day.js';
import type { PaymentTaxDb } from '../db.js';
import { agentForWithdraw, balanceOf, lockApproved, retryCandidates, type ApprovedWithdraw } from './withdraw-requests.repository.js';
import { nextMonth, withdrawMonth } from './withdraw-month.js';

export interface CreateWithdrawInput {
  agentId: number;
  amount: string;
  note?: string | undefined;
  approvalLineCode?: string | undefined;
}

export type TransferOutcome = 'sent' | 'failed' | 'skipped';

export interface WithdrawDeps {
  db: PaymentTaxDb;
  cipher: FieldCipher;
  bank: BankAdapter;
  logger: LogLike;
}

const DEFAULT_CUTOFF_DAY = 25;
const DEFAULT_LINE = 'WITHDRAW_DEFAULT';
/** advisory-lock namespace: one agent's withdraw requests are checked against its balance one at a time */
const AGENT_LOCK = 60_013;

function cutoffDay(value: string | undefined): number {
  const day = Number(value?.trim());
  return Number.isInteger(day) && day >= 1 && day <= 31 ? day : DEFAULT_CUTOFF_DAY;
}

/**
 * Withdraw requests (spec 2.6, 3.2, 4.5, 6): created REQUESTED, which starts an approval through the outbox
 * (APPROVAL_REQUESTED to auth-platform); the approval's decision comes back as APPROVAL_DECIDED. On APPROVED
 * the bank is asked to transfer after the decision has committed: success -> SENT with the bank's
 * transaction; failure -> stays APPROVED with fail_reason, for bank-retry.
 */
export class WithdrawService {
  constructor(private readonly deps: WithdrawDeps) {}

  async create(input: CreateWithdrawInput, userId: number, now = new Date()) {
    return this.deps.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${AGENT_LOCK}, ${input.agentId}::int)`.execute(trx);
      const agent = await agentForWithdraw(trx, input.agentId);
      if (!agent) throw invalid('agentId', `agent ${input.agentId} not found`);
      if (agent.status !== 'ACTIVE') throw invalid('agentId', `agent ${input.agentId} is ${agent.status}`);
      if (!agent.bank_code || !agent.account_no) throw invalid('agentId', `agent ${input.agentId} has no bank account to pay into`);
      const balance = await balanceOf(trx, input.agentId, input.amount);
      if (balance.exceeds) {
        throw invalid(
          'amount',
          `amount ${money(input.amount)} exceeds the available balance ${money(balance.available)} ` +
            `(confirmed unpaid ${money(balance.confirmedUnpaid)}, open withdraws ${money(balance.outstandingWithdraws)})`,
        );
      }
      const config = await readSystemConfig(trx, ['WITHDRAW_CUTOFF_DAY', 'WITHDRAW_APPROVAL_LINE']);
      const line = input.approvalLineCode ?? (config.get('WITHDRAW_APPROVAL_LINE')?.trim() || DEFAULT_LINE);
      const today = todayInKorea(now);
      const row = await trx
        .insertInto('withdraw_request')
        .values({
          agent_id: input.agentId,
          amount: input.amount,
          settle_month: withdrawMonth(today, cutoffDay(config.get('WITHDRAW_CUTOFF_DAY'))),
          request_date: today,
          note: input.note ?? null,
          approval_line_code: line,
          bank_code: agent.bank_code,
          account_no: agent.account_no,
          created_by: userId,
          updated_by: userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeContractEvent(trx, 'APPROVAL_REQUESTED', {
        targetType: 'WITHDRAW',
        targetId: row.withdraw_id,
        approvalLineCode: line,
        requestedBy: userId,
        title: `Withdraw request #${row.withdraw_id} (agent ${input.agentId}, ${money(input.amount)})`,
      });
      return row;
    });
  }

  /** A read (the balance page): `db` is the route's read target (the replica when one is configured). */
  balance(agentId: number, db: PaymentTaxDb = this.deps.db) {
    return balanceOf(db, agentId);
  }

  /** The consumer of APPROVAL_DECIDED for WITHDRAW targets (queue `events.payment-tax`). */
  consumer(): EventConsumer {
    return defineConsumer('payment-tax', { APPROVAL_DECIDED: (trx, event) => this.applyDecision(trx, event) });
  }

  private async applyDecision(trx: Transaction<Database>, event: ConsumedEvent<ApprovalDecided>) {
    const d = event.payload;
    if (d.targetType !== 'WITHDRAW') throw new EventRefusal(`payment-tax applies WITHDRAW decisions, not ${d.targetType}`);
    const w = await trx.selectFrom('withdraw_request').select(['withdraw_id', 'status']).where('withdraw_id', '=', d.targetId).forUpdate().executeTakeFirst();
    if (!w) throw new EventRefusal(`Withdraw request ${d.targetId} does not exist`);
    if (w.status !== 'REQUESTED') {
      throw new EventRefusal(`Withdraw request ${d.targetId} is ${w.status}; the ${d.decision} decision of approval request ${d.requestId} does not apply`);
    }
    const status = d.decision === 'APPROVED' ? 'APPROVED' : d.decision === 'REJECTED' ? 'REJECTED' : 'CANCELLED';
    await trx
      .updateTable('withdraw_request')
      .set((eb) => ({
        status,
        approval_request_id: d.requestId,
        decided_by: d.decidedBy,
        decided_at: d.decidedAt,
        reject_reason: status === 'APPROVED' ? null : (d.reason ?? `${d.decision.toLowerCase()} without a reason`),
        updated_by: d.decidedBy,
        updated_at: sql`now()`,
        version: eb('version', '+', 1),
      }))
      .where('withdraw_id', '=', d.targetId)
      .execute();
    // the transfer runs after the decision has committed; if this process dies first, bank-retry sends it
    if (status === 'APPROVED') return async () => void (await this.transfer(d.targetId));
    return undefined;
  }

  /**
   * One bank transfer attempt of an APPROVED withdraw, holding its row lock so no other attempt runs at the
   * same time. The reference `WITHDRAW#<id>` makes a repeated request safe at the bank.
   */
  async transfer(withdrawId: number): Promise<TransferOutcome> {
    return this.deps.db.transaction().execute(async (trx) => {
      const w = await lockApproved(trx, withdrawId);
      if (!w) return 'skipped';
      let result: Awaited<ReturnType<BankAdapter['transfer']>>;
      try {
        result = await this.deps.bank.transfer({
          reference: `WITHDRAW#${w.withdraw_id}`,
          bankCode: w.bank_code ?? '',
          accountNo: this.deps.cipher.decrypt(w.account_no ?? ''),
          holderName: w.agent_name,
          amount: money(w.amount)!,
        });
      } catch (err) {
        const transferStatus = err instanceof BankTimeoutError ? 'TIMEOUT' : err instanceof BankTransferError ? err.code : 'ERROR';
        await trx
          .updateTable('withdraw_request')
          .set((eb) => ({
            transfer_status: transferStatus.slice(0, 30),
            transfer_attempts: eb('transfer_attempts', '+', 1),
            fail_reason: (err instanceof Error ? err.message : String(err)).slice(0, 1000),
            updated_at: sql`now()`,
            version: eb('version', '+', 1),
          }))
          .where('withdraw_id', '=', withdrawId)
          .execute();
        this.deps.logger.warn({ err, withdrawId }, 'withdraw transfer failed; stays APPROVED for bank-retry');
        return 'failed';
      }
      // if this does not commit, the row stays APPROVED and a retry gets the same transaction back from the bank
      const deductionId = await this.bookAdvance(trx, w);
      await trx
        .updateTable('withdraw_request')
        .set((eb) => ({
          status: 'SENT',
          transfer_tx_id: result.txId,
          transfer_status: result.status,
          transfer_at: result.at,
          transfer_attempts: eb('transfer_attempts', '+', 1),
          fail_reason: null,
          deduction_id: deductionId,
          updated_at: sql`now()`,
          version: eb('version', '+', 1),
        }))
        .where('withdraw_id', '=', withdrawId)
        .execute();
      return 'sent';
    });
  }

  /** `POST /api/internal/bank-retry`: the oldest APPROVED withdraws, at most `limit`. */
  async retry(limit: number): Promise<{ attempted: number; sent: number; failed: number }> {
    const counts = { attempted: 0, sent: 0, failed: 0 };
    for (const id of await retryCandidates(this.deps.db, limit)) {
      const outcome = await this.transfer(id);
      if (outcome === 'skipped') continue;
      counts.attempted += 1;
      counts[outcome] += 1;
    }
    return counts;
  }

  /**
   * The sent amount is an advance on the agent's payment: it is added to the PENDING ADVANCE deduction of the
   * withdraw's month (rule 6 takes it from that month's payment). When that month's ADVANCE deduction is
   * already applied or cancelled, the next month's takes it.
   */
  private async bookAdvance(trx: Transaction<Database>, w: ApprovedWithdraw): Promise<number> {
    let month = w.settle_month;
    for (let i = 0; i < 24; i += 1, month = nextMonth(month)) {
      const existing = await trx
        .selectFrom('agent_deduction')
        .select(['deduction_id', 'status'])
        .where('agent_id', '=', w.agent_id)
        .where('settle_month', '=', month)
        .where('deduction_type', '=', 'ADVANCE')
        .forUpdate()
        .executeTakeFirst();
      if (!existing) {
        const row = await trx
          .insertInto('agent_deduction')
          .values({ agent_id: w.agent_id, settle_month: month, deduction_type: 'ADVANCE', amount: w.amount, description: 'Advance paid by withdraw requests' })
          .returning('deduction_id')
          .executeTakeFirstOrThrow();
        return row.deduction_id;
      }
      if (existing.status === 'PENDING') {
        await trx
          .updateTable('agent_deduction')
          .set((eb) => ({ amount: sql`amount + ${w.amount}::numeric`, updated_at: sql`now()`, version: eb('version', '+', 1) }))
          .where('deduction_id', '=', existing.deduction_id)
          .execute();
        return existing.deduction_id;
      }
    }
    throw new Error(`No month within two years of ${w.settle_month} takes an ADVANCE deduction for agent ${w.agent_id}`);
  }
}
