import { sql } from 'kysely';
import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { correctionResource, MENU_CORRECTION } from './correction.resource.js';
import { approveCorrection, createRecalcCorrection, decideCorrection, type CorrectionResult } from './correction.service.js';

const tags = ['Settlement corrections'];
const params = z.object({ id: zId });
const note = z.string().trim().min(1).max(1000);
const recalcReq = z.object({ agentId: zId, originalMonth: zSettleMonth, reason: note });

/** Corrections: list/detail/create/update (field table), approve, reject, cancel, recalculation. */
export async function registerCorrectionRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, correctionResource);

  const respond = async (result: CorrectionResult, log: (c: (typeof result.changes)[number]) => void) => {
    for (const c of result.changes) log(c);
    const row = await correctionResource
      .select(app.db)
      .where(sql.ref(correctionResource.idRef), '=', result.after.correction_id)
      .executeTakeFirstOrThrow();
    return ok(correctionResource.toResp(row, app.cipher));
  };

  app.post(
    '/api/settle-corrections/recalc',
    {
      config: perm(MENU_CORRECTION, 'CREATE'),
      schema: {
        tags,
        summary:
          "Recalculation correction: re-price the agent's month under today's rules (the month stays untouched); PENDING with every line; E400 when nothing differs",
        body: recalcReq,
        response: { 200: envelope(correctionResource.schemas.response) },
      },
    },
    async (request) =>
      respond(
        await createRecalcCorrection(app.db, { ...request.body, userId: request.user?.userId ?? null }),
        (c) => request.changeLog(c),
      ),
  );

  action(
    app,
    '/api/settle-corrections/:id/approve',
    {
      config: perm(MENU_CORRECTION, 'APPROVE'),
      schema: {
        tags,
        summary:
          'Approve a PENDING correction (else B001; not your own: E403): booked into the first OPEN month and counted there',
        params,
        body: z.object({ note: note.optional() }).optional(),
        response: { 200: envelope(correctionResource.schemas.response) },
      },
    },
    async (request) =>
      respond(
        await approveCorrection(app.db, {
          correctionId: request.params.id,
          userId: request.user?.userId ?? null,
          note: request.body?.note,
        }),
        (c) => request.changeLog(c),
      ),
  );

  action(
    app,
    '/api/settle-corrections/:id/reject',
    {
      config: perm(MENU_CORRECTION, 'APPROVE'),
      schema: { tags, summary: 'Reject a PENDING correction with a reason (else B001)', params, body: z.object({ reason: note }), response: { 200: envelope(correctionResource.schemas.response) } },
    },
    async (request) =>
      respond(
        await decideCorrection(app.db, {
          correctionId: request.params.id,
          userId: request.user?.userId ?? null,
          to: 'REJECTED',
          note: request.body.reason,
        }),
        (c) => request.changeLog(c),
      ),
  );

  action(
    app,
    '/api/settle-corrections/:id/cancel',
    {
      config: perm(MENU_CORRECTION, 'UPDATE'),
      schema: {
        tags,
        summary: 'Cancel a PENDING correction (else B001)',
        params,
        body: z.object({ note: note.optional() }).optional(),
        response: { 200: envelope(correctionResource.schemas.response) },
      },
    },
    async (request) =>
      respond(
        await decideCorrection(app.db, {
          correctionId: request.params.id,
          userId: request.user?.userId ?? null,
          to: 'CANCELLED',
          note: request.body?.note,
        }),
        (c) => request.changeLog(c),
      ),
  );
}
