import { z } from 'zod';
import { envelope, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { holdConditionSchema } from './hold-condition.js';
import { holdResource } from './hold.resource.js';
import { holdSettlement } from './hold.service.js';

const holdReq = z.object({
  settleId: zId,
  reason: z.string().trim().min(1).max(1000),
  reasonCode: z.string().trim().min(1).max(30).optional(),
  condition: holdConditionSchema.optional(),
});

/** Held settle rows with their conditions; holding with a release condition (SETTLE_LIST APPROVE, like /hold). */
export async function registerHoldRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, holdResource);

  app.post(
    '/api/settle-holds',
    {
      config: perm('SETTLE_LIST', 'APPROVE'),
      schema: {
        tags: ['Settlement holds'],
        summary:
          'Hold a CALCULATED or CONFIRMED settlement with a HOLD_REASON code and an optional release condition (until a date, a valid license, training hours, a closed dispute); every run releases it once met',
        body: holdReq,
        response: { 200: envelope(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const b = request.body;
      const result = await holdSettlement(app.db, {
        settleId: b.settleId,
        userId: request.user?.userId ?? null,
        reason: b.reason,
        reasonCode: b.reasonCode,
        condition: b.condition,
      });
      for (const c of result.changes) request.changeLog(c);
      return ok({ id: Number(result.hold!.hold_id) });
    },
  );
}
