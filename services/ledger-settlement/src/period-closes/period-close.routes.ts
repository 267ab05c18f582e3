import { sql } from 'kysely';
import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { MENU_PERIOD_CLOSE, periodCloseResource } from './period-close.resource.js';
import { checkMonth, closeMonth, reopenMonth } from './period-close.service.js';

const tags = ['Period close'];
const params = z.object({ id: zId });
const version = z.number().int().min(0).optional().describe('the version read; a stale one gives B002');
const closeBody = z.object({ note: z.string().trim().max(1000).optional(), version }).optional();
const reopenBody = z.object({ reason: z.string().trim().min(1).max(1000), version });
const count = z.number().int();
const checkResp = z.object({
  settleMonth: z.string(),
  closeId: z.number().int().nullable(),
  status: z.enum(['OPEN', 'CLOSED']),
  settleRows: count,
  byStatus: z.object({ CALCULATED: count, CONFIRMED: count, HOLD: count, PAID: count }),
  blocking: count.describe('settle rows that are not CONFIRMED, HOLD or PAID'),
  runInProgress: z.number().int().nullable(),
  closable: z.boolean(),
});

/** Period close (PERIOD_CLOSE): list/detail/create, the month check, close and reopen (DECISIONS "Settlement lifecycle"). */
export async function registerPeriodCloseRoutes(app: ServiceApp): Promise<void> {
  app.get(
    '/api/period-closes/check',
    {
      config: perm(MENU_PERIOD_CLOSE, 'READ'),
      schema: {
        tags,
        summary: 'What closing a month would find: settle rows per status, blocking rows, a run in progress',
        querystring: z.object({ settleMonth: zSettleMonth }),
        response: { 200: envelope(checkResp) },
      },
    },
    async (request) => ok(await checkMonth(app.db, request.query.settleMonth)),
  );

  registerResource(app, periodCloseResource);

  const detail = async (id: number) =>
    periodCloseResource.toResp(
      await periodCloseResource.select(app.db).where(sql.ref(periodCloseResource.idRef), '=', id).executeTakeFirstOrThrow(),
      app.cipher,
    );

  action(
    app,
    '/api/period-closes/:id/close',
    {
      config: perm(MENU_PERIOD_CLOSE, 'UPDATE'),
      schema: {
        tags,
        summary: 'Close the month: every settle row CONFIRMED, HOLD or PAID (else E400 with the count); B001 when closed',
        params,
        body: closeBody,
        response: { 200: envelope(periodCloseResource.schemas.response) },
      },
    },
    async (request) => {
      const result = await closeMonth(app.db, {
        closeId: request.params.id,
        userId: request.user?.userId ?? null,
        note: request.body?.note,
        version: request.body?.version,
      });
      for (const c of result.changes) request.changeLog(c);
      return ok(await detail(request.params.id));
    },
  );

  action(
    app,
    '/api/period-closes/:id/reopen',
    {
      config: perm(MENU_PERIOD_CLOSE, 'UPDATE'),
      schema: {
        tags,
        summary: 'Reopen a CLOSED month with a reason (else B001)',
        params,
        body: reopenBody,
        response: { 200: envelope(periodCloseResource.schemas.response) },
      },
    },
    async (request) => {
      const result = await reopenMonth(app.db, {
        closeId: request.params.id,
        userId: request.user?.userId ?? null,
        reason: request.body.reason,
        version: request.body.version,
      });
      for (const c of result.changes) request.changeLog(c);
      return ok(await detail(request.params.id));
    },
  );
}
