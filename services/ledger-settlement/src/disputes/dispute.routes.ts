import { sql } from 'kysely';
import { z } from 'zod';
import { DISPUTE_REASON_CODES, SETTLE_ROW_TABLES } from '@csp/db';
import { action, envelope, ok, perm, registerResource, zId, zMoney, type ServiceApp } from '@csp/service-kit';
import { disputeResource, MENU_DISPUTE } from './dispute.resource.js';
import { decideDispute, raiseDispute, reviewDispute, type DisputeResult } from './dispute.service.js';

const tags = ['Disputes'];
const params = z.object({ id: zId });
const note = z.string().trim().min(1).max(2000);
const raiseReq = z.object({
  targetTable: z.enum(SETTLE_ROW_TABLES).describe('table of the disputed settle or ledger row'),
  targetId: zId,
  reasonCode: z.enum(DISPUTE_REASON_CODES),
  reasonText: z.string().trim().min(1).max(2000),
  claimedAmount: zMoney.nullable().optional(),
  fileGroupId: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'must be a file group id')
    .nullable()
    .optional()
    .describe('file_storage group of the attachments (uploaded through /api/files)'),
  holdSettlement: z
    .boolean()
    .default(false)
    .describe("hold the agent's settle row of the month until the dispute closes (HOLD_REASON DISPUTE)"),
});
const raiseResp = z.object({ id: z.number().int(), held: z.boolean() });
const approveReq = z.object({
  note,
  amount: zMoney.optional().describe('signed correction amount; creates the correction booked into the first OPEN month'),
});

/** Disputes: list/detail (AGENT: own), raise, review, approve (-> correction) and reject. */
export async function registerDisputeRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, disputeResource);

  const respond = async (result: DisputeResult, log: (c: (typeof result.changes)[number]) => void) => {
    for (const c of result.changes) log(c);
    const row = await disputeResource
      .select(app.db)
      .where(sql.ref(disputeResource.idRef), '=', result.dispute.dispute_id)
      .executeTakeFirstOrThrow();
    return ok(disputeResource.toResp(row, app.cipher));
  };

  app.post(
    '/api/disputes',
    {
      config: perm(MENU_DISPUTE, 'CREATE'),
      schema: {
        tags,
        summary:
          'Raise a dispute against a settle or ledger row (OPEN); AGENT users only on their own rows (E403); optionally hold the settlement',
        body: raiseReq,
        response: { 200: envelope(raiseResp) },
      },
    },
    async (request) => {
      const b = request.body;
      const result = await raiseDispute(app.db, request.user, {
        targetTable: b.targetTable,
        targetId: b.targetId,
        reasonCode: b.reasonCode,
        reasonText: b.reasonText,
        claimedAmount: b.claimedAmount,
        fileGroupId: b.fileGroupId,
        holdSettlement: b.holdSettlement,
      });
      for (const c of result.changes) request.changeLog(c);
      return ok({ id: Number(result.dispute.dispute_id), held: result.held ?? false });
    },
  );

  action(
    app,
    '/api/disputes/:id/review',
    {
      config: perm(MENU_DISPUTE, 'UPDATE'),
      schema: { tags, summary: 'OPEN -> IN_REVIEW with a note (else B001)', params, body: z.object({ note }), response: { 200: envelope(disputeResource.schemas.response) } },
    },
    async (request) =>
      respond(
        await reviewDispute(app.db, { disputeId: request.params.id, userId: request.user?.userId ?? null, note: request.body.note }),
        (c) => request.changeLog(c),
      ),
  );

  action(
    app,
    '/api/disputes/:id/approve',
    {
      config: perm(MENU_DISPUTE, 'APPROVE'),
      schema: {
        tags,
        summary:
          'IN_REVIEW -> APPROVED with a note (else B001; not your own: E403); with an amount its correction is created and booked in the same transaction',
        params,
        body: approveReq,
        response: { 200: envelope(disputeResource.schemas.response) },
      },
    },
    async (request) =>
      respond(
        await decideDispute(app.db, {
          disputeId: request.params.id,
          userId: request.user?.userId ?? null,
          approve: true,
          note: request.body.note,
          amount: request.body.amount,
        }),
        (c) => request.changeLog(c),
      ),
  );

  action(
    app,
    '/api/disputes/:id/reject',
    {
      config: perm(MENU_DISPUTE, 'APPROVE'),
      schema: { tags, summary: 'IN_REVIEW -> REJECTED with a note (else B001; not your own: E403)', params, body: z.object({ note }), response: { 200: envelope(disputeResource.schemas.response) } },
    },
    async (request) =>
      respond(
        await decideDispute(app.db, { disputeId: request.params.id, userId: request.user?.userId ?? null, approve: false, note: request.body.note }),
        (c) => request.changeLog(c),
      ),
  );
}
