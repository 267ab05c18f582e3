import { z } from 'zod';
import { AppError, envelope, notFound, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { commissionTypeResource, isBuiltInType, MENU_COMM_TYPE } from './commission-type.resource.js';

/** Commission types: list/detail/create/update (resource) and a DELETE that refuses the nine built-in types. */
export async function registerCommissionTypeRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, commissionTypeResource);
  app.delete(
    '/api/commission-types/:id',
    {
      config: perm(MENU_COMM_TYPE, 'DELETE'),
      schema: {
        tags: ['Commission types'],
        summary: 'Delete a custom commission type (E400 for the nine built-in types or a type in use)',
        params: z.object({ id: zId }),
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const id = request.params.id;
      const before = await app.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('commission_type').selectAll().where('type_id', '=', id).forUpdate().executeTakeFirst();
        if (!row) throw notFound(`CommissionType ${id}`);
        if (isBuiltInType(row.type_code)) {
          throw new AppError('BAD_REQUEST', `${row.type_code} is a built-in commission type and cannot be deleted (deactivate it instead)`);
        }
        await trx.deleteFrom('commission_type').where('type_id', '=', id).execute();
        return row;
      });
      request.changeLog({ menuCode: MENU_COMM_TYPE, tableName: 'commission_type', recordId: id, action: 'DELETE', before });
      return ok();
    },
  );
}
