import type { Kysely, Transaction } from 'kysely';
import type { ApprovalTargetType, Database } from '@csp/db';
import type { Adapters } from '@csp/adapters';
import {
  APPROVAL_SERVICE,
  APPROVAL_TARGET_STATES,
  defineConsumer,
  writeContractEvent,
  type ApprovalDecided,
  type EventConsumer,
  type LogLike,
} from '@csp/events';
import { AppError, duplicate, forbidden, invalid, isAppError, notFound } from '@csp/service-kit';
import { stepRolesSchema } from './approvals.resource.js';
import {
  activeRolesOf,
  findLine,
  insertNotifications,
  lockRequest,
  openRequestOf,
  roleHolders,
  stepsOf,
  targetStatus,
} from './approvals.repository.js';

type Db = Kysely<Database>;
type Trx = Transaction<Database> | Db;
type RequestRow = NonNullable<Awaited<ReturnType<typeof lockRequest>>>;

export interface StartRequestInput {
  targetType: ApprovalTargetType;
  targetId: number;
  approvalLineCode: string;
  requestedBy: number;
  title?: string | undefined;
  /** the APPROVAL_REQUESTED event that asked for it */
  sourceEventId?: number;
}

/** The text message owed to the first phone holder of an activated step (sent after commit). */
interface PlannedMessage {
  phone: string;
  recipientName: string;
  text: string;
  reference: string;
}

export interface Decision {
  before: RequestRow;
  after: RequestRow;
  message: PlannedMessage | null;
}

const TARGET_LABELS: Record<ApprovalTargetType, string> = {
  WITHDRAW: 'Withdraw request',
  SETTLE: 'Settlement',
  DISPUTE: 'Dispute',
  INCENTIVE: 'Incentive',
  SIMULATION: 'Simulation adoption',
};

const linkOf = (requestId: number) => `/system/approvals?requestId=${requestId}`;

/**
 * The approval workflow (DECISIONS "Approval workflow and events between services"): a request copies the
 * steps of its line; step 1 is active at once; each approval activates the next step; the last approval,
 * a rejection or a cancellation ends the request and writes APPROVAL_DECIDED to the target's owner in the
 * same transaction. Activating a step notifies the holders of its role and texts the first one with a phone.
 */
export class ApprovalService {
  constructor(
    private readonly db: Db,
    private readonly adapters: Pick<Adapters, 'message' | 'messageChannel'>,
    private readonly logger: LogLike,
  ) {}

  /** Validates the line and the target, inserts the request and its steps, activates step 1. */
  async startRequest(trx: Trx, input: StartRequestInput): Promise<{ request: RequestRow; message: PlannedMessage | null }> {
    const { targetType, targetId, approvalLineCode: code } = input;
    const states = APPROVAL_TARGET_STATES[targetType];
    if (!states) throw invalid('targetType', `${targetType} approvals are not available yet: no service applies their decisions`);
    const line = await findLine(trx, code);
    if (!line) throw invalid('approvalLineCode', `unknown approval line ${code}`);
    if (!line.is_active) throw invalid('approvalLineCode', `approval line ${code} is inactive`);
    if (line.target_type !== targetType) {
      throw invalid('approvalLineCode', `approval line ${code} approves ${line.target_type} requests, not ${targetType}`);
    }
    const roles = stepRolesSchema.parse(line.step_roles);
    const status = await targetStatus(trx, targetType, targetId);
    if (status === undefined) throw invalid('targetId', `${targetType} ${targetId} does not exist`);
    if (!states.approvable.includes(status)) {
      throw new AppError('ALREADY_CONFIRMED', `${targetType} ${targetId} is ${status}; only ${states.approvable.join(' or ')} can be put up for approval`);
    }
    const open = await openRequestOf(trx, targetType, targetId);
    if (open) throw duplicate(`${targetType} ${targetId} already has a pending approval request (${open.request_id})`);

    const request = await trx
      .insertInto('approval_request')
      .values({
        target_type: targetType,
        target_id: targetId,
        line_id: line.line_id,
        line_code: line.line_code,
        step_count: roles.length,
        title: input.title ?? `${TARGET_LABELS[targetType]} #${targetId}`,
        requested_by: input.requestedBy,
        source_event_id: input.sourceEventId ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const activatedAt = new Date();
    await trx
      .insertInto('approval_step')
      .values(
        roles.map((roleCode, i) => ({
          request_id: request.request_id,
          step_no: i + 1,
          role_code: roleCode,
          status: i === 0 ? ('PENDING' as const) : ('WAITING' as const),
          activated_at: i === 0 ? activatedAt : null,
        })),
      )
      .execute();
    const message = await this.activate(trx, request, 1, roles[0]!, [input.requestedBy]);
    return { request, message };
  }

  /** Creates a request from the API (the caller is the requester). */
  async create(input: StartRequestInput): Promise<RequestRow> {
    const { request, message } = await this.db.transaction().execute((trx) => this.startRequest(trx, input));
    await this.sendMessage(message);
    return request;
  }

  async approve(requestId: number, userId: number, comment: string | null): Promise<Decision> {
    const decision = await this.db.transaction().execute(async (trx) => {
      const { before, steps, active } = await this.lockForDecision(trx, requestId, userId, 'approve');
      const decidedAt = new Date();
      await trx
        .updateTable('approval_step')
        .set({ status: 'APPROVED', decided_by: userId, decided_at: decidedAt, comment })
        .where('request_id', '=', requestId)
        .where('step_no', '=', active.step_no)
        .execute();
      if (active.step_no === before.step_count) {
        const after = await this.finish(trx, before, 'APPROVED', userId, decidedAt, comment);
        return { before, after, message: null };
      }
      const next = steps.find((s) => s.step_no === active.step_no + 1)!;
      await trx
        .updateTable('approval_step')
        .set({ status: 'PENDING', activated_at: decidedAt })
        .where('request_id', '=', requestId)
        .where('step_no', '=', next.step_no)
        .execute();
      const after = await trx
        .updateTable('approval_request')
        .set((eb) => ({ current_step: next.step_no, updated_at: decidedAt, version: eb('version', '+', 1) }))
        .where('request_id', '=', requestId)
        .returningAll()
        .executeTakeFirstOrThrow();
      const deciders = steps.flatMap((s) => (s.decided_by === null ? [] : [s.decided_by]));
      const message = await this.activate(trx, after, next.step_no, next.role_code, [before.requested_by, userId, ...deciders]);
      return { before, after, message };
    });
    await this.sendMessage(decision.message);
    return decision;
  }

  async reject(requestId: number, userId: number, reason: string): Promise<Decision> {
    return this.db.transaction().execute(async (trx) => {
      const { before, active } = await this.lockForDecision(trx, requestId, userId, 'reject');
      const decidedAt = new Date();
      await trx
        .updateTable('approval_step')
        .set({ status: 'REJECTED', decided_by: userId, decided_at: decidedAt, comment: reason })
        .where('request_id', '=', requestId)
        .where('step_no', '=', active.step_no)
        .execute();
      await this.cancelWaitingSteps(trx, requestId);
      const after = await this.finish(trx, before, 'REJECTED', userId, decidedAt, reason);
      return { before, after, message: null };
    });
  }

  /** By the requester, while no step has been decided. */
  async cancel(requestId: number, userId: number, reason: string | null): Promise<Decision> {
    return this.db.transaction().execute(async (trx) => {
      const before = await lockRequest(trx, requestId);
      if (!before) throw notFound(`Approval request ${requestId}`);
      if (before.requested_by !== userId) throw forbidden(`Only the requester can cancel approval request ${requestId}`);
      if (before.status !== 'PENDING') throw new AppError('ALREADY_CONFIRMED', `Approval request ${requestId} is ${before.status}`);
      const steps = await stepsOf(trx, requestId);
      const decided = steps.find((s) => s.status === 'APPROVED');
      if (decided) {
        throw new AppError('ALREADY_CONFIRMED', `Step ${decided.step_no} of approval request ${requestId} is already approved; it can no longer be cancelled`);
      }
      await this.cancelWaitingSteps(trx, requestId);
      const after = await this.finish(trx, before, 'CANCELLED', userId, new Date(), reason);
      return { before, after, message: null };
    });
  }

  /** Approvals reach other services only through events: this consumer starts requests they ask for. */
  consumer(): EventConsumer {
    return defineConsumer(APPROVAL_SERVICE, {
      APPROVAL_REQUESTED: async (trx, event) => {
        const p = event.payload;
        try {
          const { message } = await this.startRequest(trx, { ...p, sourceEventId: event.eventId });
          return () => this.sendMessage(message);
        } catch (err) {
          // checks run before any write, so the transaction is still clean: answer with a rejection
          if (!isAppError(err)) throw err;
          await writeContractEvent(trx, 'APPROVAL_DECIDED', {
            requestId: null,
            targetType: p.targetType,
            targetId: p.targetId,
            decision: 'REJECTED',
            reason: `the approval could not start: ${err.message}`,
            decidedBy: null,
            decidedAt: new Date().toISOString(),
            requestedBy: p.requestedBy,
            approvalLineCode: p.approvalLineCode,
          });
          return undefined;
        }
      },
    });
  }

  /** A message failure never fails the approval (spec 6): it is logged (and in external_call_log). */
  async sendMessage(message: PlannedMessage | null): Promise<void> {
    if (!message) return;
    try {
      await this.adapters.message.send({ channel: this.adapters.messageChannel, ...message });
    } catch (err) {
      this.logger.warn({ err, reference: message.reference }, 'approval message could not be sent');
    }
  }

  private async lockForDecision(trx: Trx, requestId: number, userId: number, verb: 'approve' | 'reject') {
    const before = await lockRequest(trx, requestId);
    if (!before) throw notFound(`Approval request ${requestId}`);
    if (before.status !== 'PENDING') throw new AppError('ALREADY_CONFIRMED', `Approval request ${requestId} is ${before.status}`);
    if (before.requested_by === userId) throw forbidden(`You cannot ${verb} your own approval request ${requestId}`);
    const steps = await stepsOf(trx, requestId);
    const active = steps.find((s) => s.status === 'PENDING');
    if (!active) throw new AppError('ALREADY_CONFIRMED', `Approval request ${requestId} has no active step`);
    const mine = steps.find((s) => s.decided_by === userId);
    if (mine) throw forbidden(`You already decided step ${mine.step_no} of approval request ${requestId}`);
    const roles = await activeRolesOf(trx, userId);
    if (!roles.has(active.role_code)) {
      throw forbidden(`Step ${active.step_no} of approval request ${requestId} is decided by role ${active.role_code}`);
    }
    return { before, steps, active };
  }

  private async cancelWaitingSteps(trx: Trx, requestId: number): Promise<void> {
    await trx
      .updateTable('approval_step')
      .set({ status: 'CANCELLED' })
      .where('request_id', '=', requestId)
      .where('status', 'in', ['WAITING', 'PENDING'])
      .execute();
  }

  /** Ends the request and writes the decision for the target's owner in the same transaction. */
  private async finish(
    trx: Trx,
    before: RequestRow,
    decision: ApprovalDecided['decision'],
    userId: number,
    decidedAt: Date,
    reason: string | null,
  ): Promise<RequestRow> {
    const after = await trx
      .updateTable('approval_request')
      .set((eb) => ({
        status: decision,
        decided_by: userId,
        decided_at: decidedAt,
        reason,
        updated_at: decidedAt,
        version: eb('version', '+', 1),
      }))
      .where('request_id', '=', before.request_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeContractEvent(trx, 'APPROVAL_DECIDED', {
      requestId: before.request_id,
      targetType: before.target_type,
      targetId: before.target_id,
      decision,
      reason,
      decidedBy: userId,
      decidedAt: decidedAt.toISOString(),
      requestedBy: before.requested_by,
      approvalLineCode: before.line_code,
    });
    if (decision !== 'CANCELLED') {
      await insertNotifications(trx, [before.requested_by], {
        title: `${decision === 'APPROVED' ? 'Approved' : 'Rejected'}: ${before.title}`,
        content: reason ?? `Approval request ${before.request_id} was ${decision.toLowerCase()}.`,
        linkUrl: linkOf(before.request_id),
      });
    }
    return after;
  }

  /** A step becomes active: a notification for each holder of its role, a text for the first with a phone. */
  private async activate(trx: Trx, request: RequestRow, stepNo: number, roleCode: string, exclude: number[]): Promise<PlannedMessage | null> {
    const holders = await roleHolders(trx, roleCode, [...new Set(exclude)]);
    const what = `${request.title} (step ${stepNo} of ${request.step_count})`;
    await insertNotifications(
      trx,
      holders.map((h) => h.user_id),
      { title: `Approval needed: ${request.title}`, content: `Step ${stepNo} of ${request.step_count} (${roleCode}) waits for your decision.`, linkUrl: linkOf(request.request_id) },
    );
    const withPhone = holders.find((h) => (h.phone ?? '').trim() !== '');
    if (!withPhone) return null;
    return {
      phone: withPhone.phone!.trim(),
      recipientName: withPhone.user_name,
      text: `[CSP] Approval needed: ${what}`,
      reference: `APPROVAL#${request.request_id}`,
    };
  }
}
