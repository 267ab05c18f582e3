import { sql } from 'kysely';
import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, today, zDate, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { MENU_TAX_INVOICE, taxInvoiceResource } from './tax-invoice.resource.js';
import { cancelTaxInvoice, issueTaxInvoices } from './tax-invoice.service.js';

const tags = ['Tax invoices'];
const issueReq = z.object({ settleMonth: zSettleMonth, agentId: zId.optional(), issueDate: zDate.optional() });
const issueResp = z.object({ issued: z.number().int(), alreadyIssued: z.number().int(), notCalculated: z.number().int() });

/** Tax invoices: list/detail/export, issue for a month of payments, cancel. */
export async function registerTaxInvoiceRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, taxInvoiceResource);

  app.post(
    '/api/tax-invoices/issue',
    {
      config: perm(MENU_TAX_INVOICE, 'CREATE'),
      schema: {
        tags,
        summary: 'Issue one tax invoice per TAXABLE agent paid in the month (supply = payments, VAT = their VAT); already issued ones are left alone',
        body: issueReq,
        response: { 200: envelope(issueResp) },
      },
    },
    async (request) => {
      const { issued, alreadyIssued, notCalculated, changes } = await issueTaxInvoices(app.db, {
        settleMonth: request.body.settleMonth,
        agentId: request.body.agentId,
        issueDate: request.body.issueDate ?? today(),
        userId: request.user?.userId ?? null,
      });
      for (const c of changes) request.changeLog(c);
      return ok({ issued, alreadyIssued, notCalculated });
    },
  );

  action(
    app,
    '/api/tax-invoices/:id/cancel',
    {
      config: perm(MENU_TAX_INVOICE, 'UPDATE'),
      schema: {
        tags,
        summary: 'Cancel an ISSUED tax invoice with a reason (else B001)',
        params: z.object({ id: zId }),
        body: z.object({ reason: z.string().trim().min(1).max(1000) }),
        response: { 200: envelope(taxInvoiceResource.schemas.response) },
      },
    },
    async (request) => {
      const result = await cancelTaxInvoice(app.db, { invoiceId: request.params.id, userId: request.user?.userId ?? null, reason: request.body.reason });
      for (const c of result.changes) request.changeLog(c);
      const row = await taxInvoiceResource.select(app.db).where(sql.ref(taxInvoiceResource.idRef), '=', request.params.id).executeTakeFirstOrThrow();
      return ok(taxInvoiceResource.toResp(row, app.cipher));
    },
  );
}
