import { APPROVAL_DECISIONS, APPROVAL_TARGETS, type ApprovalTargetType } from '@csp/db';
import { z } from 'zod';

/**
 * The event contract between services (DECISIONS "Approval workflow and events between services").
 * An event has a type, a target (the service that owns the data it changes and whose queue receives it)
 * and a payload validated against the schema below when it is written and again when it is consumed.
 */

export const EVENT_SERVICES = [
  'auth-platform',
  'master-data',
  'intake',
  'ledger-settlement',
  'payment-tax',
  'analytics',
] as const;
export type EventService = (typeof EVENT_SERVICES)[number];

/** The service that runs the approval workflow and receives APPROVAL_REQUESTED. */
export const APPROVAL_SERVICE: EventService = 'auth-platform';

/** Who applies the decision of an approval, by target type. */
export const APPROVAL_TARGET_OWNERS: Readonly<Record<ApprovalTargetType, EventService>> = {
  WITHDRAW: 'payment-tax',
  SETTLE: 'ledger-settlement',
  DISPUTE: 'ledger-settlement',
  INCENTIVE: 'ledger-settlement',
  SIMULATION: 'ledger-settlement',
};

const id = z.number().int().positive();
const targetType = z.enum(APPROVAL_TARGETS);

/**
 * Another service asks the approval service to start an approval of one of its rows (payment-tax for a
 * withdraw request). When the request cannot start (unknown line, line of another target type, target not
 * approvable) the approval service answers with APPROVAL_DECIDED `REJECTED`, `requestId` null and the reason.
 */
export const approvalRequestedPayload = z.object({
  targetType,
  targetId: id,
  approvalLineCode: z.string().min(1).max(30),
  /** the user who asked (the requester: may not approve it) */
  requestedBy: id,
  title: z.string().min(1).max(200),
});

/**
 * The outcome of an approval request, sent to the target's owner when the request ends:
 * APPROVED after the last step, REJECTED by an approver (reason required) or when the request could not
 * start, CANCELLED by the requester while nothing was decided.
 */
export const approvalDecidedPayload = z.object({
  requestId: id.nullable(),
  targetType,
  targetId: id,
  decision: z.enum(APPROVAL_DECISIONS),
  reason: z.string().max(1000).nullable(),
  /** the last approver, the rejecting approver or the cancelling requester; null when it could not start */
  decidedBy: id.nullable(),
  decidedAt: z.iso.datetime({ offset: true }),
  requestedBy: id,
  approvalLineCode: z.string().max(30).nullable(),
});

/**
 * A payment of a settlement row was paid by the bank (payment-tax status SENT -> SUCCESS). ledger-settlement
 * owns the settlement and moves the row and its ledger rows to PAID (DECISIONS "Payments and tax").
 */
export const paymentSucceededPayload = z.object({
  paymentId: id,
  settleId: id,
  agentId: id,
  settleMonth: z.string().regex(/^\d{4}(0[1-9]|1[0-2])$/),
  /** the payment's amount (gross), money as a string */
  amount: z.string().regex(/^-?\d+(\.\d+)?$/),
  resultCode: z.string().max(50).nullable(),
  /** the user who recorded the success; null for a system update */
  paidBy: id.nullable(),
  paidAt: z.iso.datetime({ offset: true }),
});

export type ApprovalRequested = z.output<typeof approvalRequestedPayload>;
export type ApprovalDecided = z.output<typeof approvalDecidedPayload>;
export type PaymentSucceeded = z.output<typeof paymentSucceededPayload>;

/** Every event type with its payload schema. */
export const EVENT_PAYLOADS = {
  APPROVAL_REQUESTED: approvalRequestedPayload,
  APPROVAL_DECIDED: approvalDecidedPayload,
  PAYMENT_SUCCEEDED: paymentSucceededPayload,
} as const;

export type EventType = keyof typeof EVENT_PAYLOADS;
export type PayloadOf<T extends EventType> = z.output<(typeof EVENT_PAYLOADS)[T]>;

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_PAYLOADS, type);
}

/** The target an event of this type and payload must go to (the contract's routing rule). */
export function contractTarget<T extends EventType>(type: T, payload: PayloadOf<T>): EventService {
  if (type === 'APPROVAL_REQUESTED') return APPROVAL_SERVICE;
  if (type === 'PAYMENT_SUCCEEDED') return 'ledger-settlement';
  return APPROVAL_TARGET_OWNERS[(payload as ApprovalDecided).targetType];
}

/** The subject of a contract event (`WITHDRAW#12` for approvals, `PAYMENT#7` for a payment). */
export function contractSubject<T extends EventType>(type: T, payload: PayloadOf<T>): string {
  if (type === 'PAYMENT_SUCCEEDED') return subjectOf('PAYMENT', (payload as PaymentSucceeded).paymentId);
  const p = payload as ApprovalRequested | ApprovalDecided;
  return subjectOf(p.targetType, p.targetId);
}

/** `WITHDRAW#12`: the subject operators see on outbox and parked rows, and the external_call_log target. */
export function subjectOf(targetType: string, targetId: number | string): string {
  return `${targetType}#${targetId}`;
}

/**
 * What the approval service may read to check a target before it starts a request (shared-database read,
 * documented here as the owners' contract): the owner's table, its key and status columns, and the statuses
 * in which a row can be put up for approval. Target types without a table yet are not approvable; their
 * owners add them here together with their consumer. The owner checks the state again when it applies
 * the decision.
 */
export const APPROVAL_TARGET_STATES: Readonly<
  Record<ApprovalTargetType, { table: string; idColumn: string; approvable: readonly string[] } | null>
> = {
  WITHDRAW: { table: 'withdraw_request', idColumn: 'withdraw_id', approvable: ['REQUESTED'] },
  SETTLE: { table: 'settle_master', idColumn: 'settle_id', approvable: ['CALCULATED'] },
  DISPUTE: { table: 'commission_dispute', idColumn: 'dispute_id', approvable: ['IN_REVIEW'] },
  INCENTIVE: { table: 'incentive_result', idColumn: 'result_id', approvable: ['PENDING_APPROVAL'] },
  SIMULATION: { table: 'simulation', idColumn: 'simulation_id', approvable: ['ADOPTION_PENDING'] },
};
