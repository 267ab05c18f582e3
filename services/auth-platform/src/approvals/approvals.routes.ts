import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createAdapters } from '@csp/adapters';
import { hostEvents } from '@csp/events';
import { action, AppError, envelope, isoTimestamp, notFound, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import {
  APPROVAL_MENU,
  approvalLineResource,
  approvalRequestResource,
  approveBody,
  cancelBody,
  createRequestBody,
  myRequestResource,
  pendingRequestResource,
  rejectBody,
  requestDetailResp,
  tags,
} from './approvals.resource.js';
import { stepsOf, type StepRow } from './approvals.repository.js';
import { ApprovalService, type Decision } from './approvals.service.js';

const params = z.object({ requestId: zId });

const stepToResp = (s: StepRow) => ({
  stepNo: s.step_no,
  roleCode: s.role_code,
  status: s.status,
  activatedAt: isoTimestamp(s.activated_at),
  decidedBy: s.decided_by,
  deciderName: s.decider_name,
  decidedAt: isoTimestamp(s.decided_at),
  comment: s.comment,
});

function caller(user: { userId: number } | undefined): number {
  if (!user) throw new AppError('UNAUTHORIZED');
  return user.userId;
}

/**
 * `/api/approvals` (menu APPROVAL): lines (field table), requests (list, mine, pending, detail with steps,
 * create, approve, reject, cancel). Fixed sub-paths (/mine, /pending) win over `/{requestId}`. The area also
 * hosts the event runtime of auth-platform: the outbox relay and the consumer of APPROVAL_REQUESTED.
 */
export async function approvalRoutes(app: ServiceApp): Promise<void> {
  // a bad adapter selection refuses to start here (spec 6)
  const adapters = createAdapters({ db: app.db, logger: app.log });
  const service = new ApprovalService(app.db, adapters, app.log);
  hostEvents(app, { consumer: service.consumer() });

  registerResource(app, approvalLineResource);
  registerResource(app, myRequestResource);
  registerResource(app, pendingRequestResource);
  registerResource(app, approvalRequestResource);

  const detail = async (requestId: number) => {
    const row = await approvalRequestResource.select(app.db).where('r.request_id', '=', requestId).executeTakeFirst();
    if (!row) throw notFound(`Approval request ${requestId}`);
    const steps = await stepsOf(app.db, requestId);
    return { ...approvalRequestResource.toResp(row, app.cipher), steps: steps.map(stepToResp) };
  };

  app.get(
    '/api/approvals/requests/:requestId',
    {
      config: perm(APPROVAL_MENU, 'READ'),
      schema: { tags, summary: 'An approval request with its step history', params, response: { 200: envelope(requestDetailResp) } },
    },
    async (request) => ok(await detail(request.params.requestId)),
  );

  app.post(
    '/api/approvals/requests',
    {
      config: perm(APPROVAL_MENU, 'CREATE'),
      schema: {
        tags,
        summary: 'Put a target up for approval (the target must exist and be approvable; one open request per target)',
        body: createRequestBody,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (request) => {
      const created = await service.create({ ...request.body, requestedBy: caller(request.user) });
      request.changeLog({ menuCode: APPROVAL_MENU, tableName: 'approval_request', recordId: created.request_id, action: 'CREATE', after: created });
      return ok({ id: created.request_id });
    },
  );

  const decided = (request: FastifyRequest, d: Decision, act: 'APPROVE' | 'UPDATE') => {
    request.changeLog({ menuCode: APPROVAL_MENU, tableName: 'approval_request', recordId: d.after.request_id, action: act, before: d.before, after: d.after });
    return ok();
  };

  action(
    app,
    '/api/approvals/requests/:requestId/approve',
    {
      config: perm(APPROVAL_MENU, 'APPROVE'),
      schema: {
        tags,
        summary: "Approve the active step (a holder of its role; not the requester; one step per user); the last one approves the request",
        params,
        body: approveBody,
        response: { 200: envelope() },
      },
    },
    async (request) =>
      decided(request, await service.approve(request.params.requestId, caller(request.user), request.body?.comment ?? null), 'APPROVE'),
  );

  action(
    app,
    '/api/approvals/requests/:requestId/reject',
    {
      config: perm(APPROVAL_MENU, 'APPROVE'),
      schema: { tags, summary: 'Reject the request at its active step (reason required)', params, body: rejectBody, response: { 200: envelope() } },
    },
    async (request) => decided(request, await service.reject(request.params.requestId, caller(request.user), request.body.reason), 'APPROVE'),
  );

  action(
    app,
    '/api/approvals/requests/:requestId/cancel',
    {
      config: perm(APPROVAL_MENU, 'UPDATE'),
      schema: { tags, summary: 'Cancel an own request while no step is decided', params, body: cancelBody, response: { 200: envelope() } },
    },
    async (request) =>
      decided(request, await service.cancel(request.params.requestId, caller(request.user), request.body?.reason ?? null), 'UPDATE'),
  );
}
