import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { deductionResource } from './deductions.resource.js';
import { cancelDeduction } from './deductions.service.js';

const MENU = 'DEDUCTION';

/** Deductions: the declared resource (list, detail, create, update while PENDING, export) and cancel. */
export async function deductionRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, deductionResource);

  action(
    app,
    '/api/deductions/:id/cancel',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags: ['Deductions'],
        summary:
          'Cancel a deduction; an APPLIED one is taken back from its payment while the payment is PENDING (else B001)',
        params: z.object({ id: zId }),
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const { before, after, restoredPaymentId } = await cancelDeduction(app.db, request.params.id, actorId(request));
      request.changeLog({
        menuCode: MENU,
        tableName: 'agent_deduction',
        recordId: request.params.id,
        action: 'UPDATE',
        before,
        after: { ...after, restoredPaymentId },
      });
      return ok();
    },
  );
}
