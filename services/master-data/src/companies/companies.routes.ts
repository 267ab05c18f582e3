import { z } from 'zod';
import { action, envelope, notFound, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { companyResource } from './companies.resource.js';

export async function registerCompanyRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, companyResource);
  const db = app.db;

  /** Deactivation instead of delete; calling it on an inactive company changes nothing. */
  action(
    app,
    '/api/companies/:id/deactivate',
    {
      config: perm('COMPANY', 'UPDATE'),
      schema: { tags: ['Insurance company'], summary: 'Deactivate company', params: z.object({ id: zId }), response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const userId = request.user?.userId ?? null;
      const change = await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('insurance_company').selectAll().where('company_id', '=', id).forUpdate().executeTakeFirst();
        if (!before) throw notFound(`Company ${id}`);
        if (!before.is_active) return undefined;
        const after = await trx
          .updateTable('insurance_company')
          .set({ is_active: false, version: before.version + 1, updated_at: new Date(), updated_by: userId })
          .where('company_id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { before, after };
      });
      if (change) {
        request.changeLog({ menuCode: 'COMPANY', tableName: 'insurance_company', recordId: id, action: 'UPDATE', ...change });
      }
      return ok();
    },
  );
}
