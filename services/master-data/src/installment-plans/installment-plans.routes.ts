import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { installmentPlanResource, MENU_INSTALLMENT_PLAN } from './installment-plans.resource.js';
import { generatePlan, generatePlanReq, generatePlanResp, planStatusReq, updatePlanStatus } from './installment-plans.service.js';

const tags = ['Installment plan'];

/** List, /excel and detail from the resource; rows are written only by /generate and /{id}/status. */
export async function registerInstallmentPlanRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, installmentPlanResource);

  app.post(
    '/api/installment-plans/generate',
    {
      config: perm(MENU_INSTALLMENT_PLAN, 'CREATE'),
      schema: {
        tags,
        summary: 'Generate (or regenerate) the installment plan of a contract (spec 1.2 rule 9)',
        body: generatePlanReq,
        response: { 200: envelope(generatePlanResp) },
      },
    },
    async (request) => ok(await generatePlan(app.db, app.cipher, request, request.body)),
  );

  action(
    app,
    '/api/installment-plans/:id/status',
    {
      config: perm(MENU_INSTALLMENT_PLAN, 'UPDATE'),
      schema: {
        tags,
        summary: 'Set the status of an installment (PAID with paid amount, time, payment)',
        params: z.object({ id: zId }),
        body: planStatusReq,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      await updatePlanStatus(app.db, request, request.params.id, request.body);
      return ok();
    },
  );
}
