import { z } from 'zod';
import { envelope, notFound, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { commissionMasterResource, MENU_COMM_MASTER } from './commission-master.resource.js';
import { clearAdjustment } from './commission-master.service.js';

/** Commission master: list/export/detail/adjust (resource) and DELETE = clear the adjustment. */
export async function registerCommissionMasterRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, commissionMasterResource);
  app.delete(
    '/api/commission-master/:id',
    {
      config: perm(MENU_COMM_MASTER, 'DELETE'),
      schema: {
        tags: ['Commission master'],
        summary: 'Clear the adjustment of a commission-master row (the computed row stays); B001 when the month is closed',
        params: z.object({ id: zId }),
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const result = await clearAdjustment(app.db, request.params.id, request.user?.userId ?? null);
      if (!result) throw notFound(`CommissionMaster ${request.params.id}`);
      request.changeLog({
        menuCode: MENU_COMM_MASTER,
        tableName: 'commission_master',
        recordId: request.params.id,
        action: 'DELETE',
        before: result.before,
        after: result.after,
      });
      return ok();
    },
  );
}
