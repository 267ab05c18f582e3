import { writeChangeLog, type ChangeLogEntry } from '@csp/service-kit';
import type { Transaction } from 'kysely';
import type { Database, SimulationStatus } from '@csp/db';
import { EventRefusal, type ApprovalDecided, type ConsumedEvent } from '@csp/events';
import { writeRevisions } from './simulation-adopt.js';
import { MENU_SIMULATION } from './simulation.resource.js';

const OUTCOME: Record<ApprovalDecided['decision'], SimulationStatus> = {
  APPROVED: 'ADOPTED',
  REJECTED: 'DONE',
  // the requester withdrew the request: the simulation can be edited, run or adopted again
  CANCELLED: 'DONE',
};

/**
 * The decision of a SIMULATION approval request (adoption, issue 26), applied once inside the consumer's
 * transaction: APPROVED -> the changes become real rule revisions dated adopt_from (simulation-adopt.ts)
 * and the simulation is ADOPTED; REJECTED (also when the request could not start) or CANCELLED -> back to
 * DONE, the reason in error_message. The simulation must still be ADOPTION_PENDING, otherwise the event is
 * parked for an operator; the same decision of the same request arriving again changes nothing. A target row
 * that can no longer take the revision (revised meanwhile) parks the event too, nothing written.
 */
export async function applySimulationDecision(trx: Transaction<Database>, event: ConsumedEvent<ApprovalDecided>): Promise<void> {
  const d = event.payload;
  const before = await trx.selectFrom('simulation').selectAll().where('simulation_id', '=', d.targetId).forUpdate().executeTakeFirst();
  if (!before) throw new EventRefusal(`Simulation ${d.targetId} does not exist`);
  const status = OUTCOME[d.decision];
  if (before.status !== 'ADOPTION_PENDING') {
    if (d.requestId !== null && before.approval_id === d.requestId && before.status === status) return;
    throw new EventRefusal(
      `Simulation ${d.targetId} is ${before.status}; the ${d.decision} decision of approval request ${d.requestId ?? '(none)'} does not apply`,
    );
  }
  const revisions: ChangeLogEntry[] = [];
  if (d.decision === 'APPROVED') {
    if (!before.adopt_from) throw new EventRefusal(`Simulation ${d.targetId} has no adoption date`);
    const fail = (message: string) =>
      new EventRefusal(`Simulation ${d.targetId} cannot be adopted from ${before.adopt_from}: ${message} (edit the rule or adopt again)`);
    revisions.push(...(await writeRevisions(trx, d.targetId, before.adopt_from, before.created_by ?? d.requestedBy, fail)));
  }
  const after = await trx
    .updateTable('simulation')
    .set({
      status,
      approval_id: d.requestId,
      adopt_from: d.decision === 'APPROVED' ? before.adopt_from : null,
      error_message: d.decision === 'REJECTED' ? `Adoption rejected: ${d.reason ?? 'no reason given'}`.slice(0, 1000) : null,
      updated_at: new Date(),
    })
    .where('simulation_id', '=', d.targetId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeChangeLog(
    trx,
    [
      ...revisions,
      {
        menuCode: MENU_SIMULATION,
        tableName: 'simulation',
        recordId: d.targetId,
        action: d.decision === 'APPROVED' ? 'APPROVE' : 'UPDATE',
        before,
        after: { ...after, approvalDecision: d.decision, eventId: event.eventId },
      },
    ],
    { userId: d.decidedBy, requestId: `event-${event.eventId}` },
  );
}
