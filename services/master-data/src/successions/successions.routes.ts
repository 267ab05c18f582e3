import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { successionResource } from './successions.resource.js';
import { cancelSuccession, deleteSuccession } from './successions.service.js';

const MENU = 'CONTRACT_SUCCESSION';
const TABLE = 'contract_succession';
const BASE = '/api/contract-successions';
const tags = ['Contract succession'];
const params = z.object({ id: zId });
/** Optional body: a cancel without a body has no reason. */
const cancelReq = z.object({ reason: z.string().trim().max(500).nullable().optional() }).nullish();

export async function registerSuccessionRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, successionResource);

  action(
    app,
    `${BASE}/:id/cancel`,
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Cancel contract succession (head of the chain only)', params, body: cancelReq, response: { 200: envelope() } },
    },
    async (request) => {
      const reason = request.body?.reason ?? null;
      const { before, after } = await cancelSuccession(app.db, request.params.id, reason, request.user?.userId ?? null);
      request.changeLog({ menuCode: MENU, tableName: TABLE, recordId: after.succession_id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    `${BASE}/:id`,
    { config: perm(MENU, 'DELETE'), schema: { tags, summary: 'Delete contract succession', params, response: { 200: envelope() } } },
    async (request) => {
      const before = await deleteSuccession(app.db, request.params.id);
      request.changeLog({ menuCode: MENU, tableName: TABLE, recordId: before.succession_id, action: 'DELETE', before });
      return ok();
    },
  );
}
