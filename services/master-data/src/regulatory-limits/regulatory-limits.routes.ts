import { z } from 'zod';
import { action, envelope, notFound, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { MENU_REGULATORY, regulatoryLimitResource } from './regulatory-limits.resource.js';
import { checkContractLimits, contractLimitCheckReq, contractLimitCheckResp } from './regulatory-limits.service.js';

const tags = ['Regulatory limit'];

export async function registerRegulatoryLimitRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, regulatoryLimitResource);

  /** Deactivation instead of delete; an inactive limit stays inactive and nothing is logged. */
  action(
    app,
    '/api/regulatory-limits/:id/deactivate',
    {
      config: perm(MENU_REGULATORY, 'UPDATE'),
      schema: { tags, summary: 'Deactivate regulatory limit', params: z.object({ id: zId }), response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const userId = request.user?.userId ?? null;
      const change = await app.db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('regulatory_limit').selectAll().where('limit_id', '=', id).forUpdate().executeTakeFirst();
        if (!before) throw notFound(`RegulatoryLimit ${id}`);
        if (!before.is_active) return undefined;
        const after = await trx
          .updateTable('regulatory_limit')
          .set({ is_active: false, updated_at: new Date(), updated_by: userId })
          .where('limit_id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { before, after };
      });
      if (change) request.changeLog({ menuCode: MENU_REGULATORY, tableName: 'regulatory_limit', recordId: id, action: 'UPDATE', ...change });
      return ok();
    },
  );

  app.post(
    '/api/regulatory-limits/check-contract',
    {
      config: perm(MENU_REGULATORY, 'READ'),
      schema: {
        tags,
        summary: 'Check a contract against TOTAL_RATIO / FIRST_YEAR_RATIO limits (spec 1.2 rule 8)',
        body: contractLimitCheckReq,
        response: { 200: envelope(contractLimitCheckResp) },
      },
    },
    async (request) => ok(await checkContractLimits(app.db, request.body)),
  );
}
