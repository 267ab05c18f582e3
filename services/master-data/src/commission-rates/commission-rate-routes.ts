import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zDate, zId, type ServiceApp } from '@csp/service-kit';
import {
  commissionRateResource,
  commissionRateResp,
  MENU_COMMISSION,
  toCommissionRateResp,
  type CommissionRateRow,
} from './commission-rate-resource.js';
import { lookupCommissionRate } from '@csp/domain';
import { reviseBase, reviseResult, reviseRule } from './rule-revision.js';
import { today, zNonNegativeMoney, zNonNegativeRate } from '../rule-support.js';

const tags = ['Commission rate'];
const params = z.object({ id: zId });

const commissionRateReviseReq = z.object({
  ...reviseBase,
  ratePct: zNonNegativeRate,
  payMethodCond: z.string().trim().max(30).nullable().optional(),
  minPremium: zNonNegativeMoney.nullable().optional(),
});

const lookupQuery = z.object({
  productId: zId,
  commissionYear: z.coerce.number().int().min(1),
  /** Base date; default today. */
  date: zDate.optional(),
  /** When given, rows with another non-NULL pay_method_cond do not apply. */
  payMethod: z.string().trim().max(30).optional(),
  /** When given, rows whose min_premium exceeds it do not apply. */
  premium: zNonNegativeMoney.optional(),
});

export async function registerCommissionRateRoutes(app: ServiceApp): Promise<void> {
  // The fixed sub-paths (/lookup, /excel) win over /:id in Fastify's router.
  registerResource(app, commissionRateResource);

  app.get(
    '/api/rules/commission-rates/lookup',
    {
      config: perm(MENU_COMMISSION, 'READ'),
      schema: {
        tags,
        summary: 'Commission rate valid on a date (domain half-open lookup, newest version); data null when none',
        querystring: lookupQuery,
        response: { 200: envelope(commissionRateResp.nullable()) },
      },
    },
    async (request) => {
      const { productId, commissionYear } = request.query;
      const date = request.query.date ?? today();
      const rows = (await commissionRateResource.baseQuery!(app.db)
        .select(commissionRateResource.columns as any)
        .where('cr.product_id', '=', productId)
        .where('cr.commission_year', '=', commissionYear)
        .where('cr.effective_from', '<=', date)
        .execute()) as CommissionRateRow[];
      const found = lookupCommissionRate(
        rows.map((row) => ({
          productId: row.product_id,
          commissionYear: row.commission_year,
          ratePct: row.rate_pct,
          payMethodCond: row.pay_method_cond,
          minPremium: row.min_premium,
          effectiveFrom: row.effective_from,
          effectiveTo: row.effective_to,
          version: row.version,
          row,
        })),
        { productId, commissionYear, date, payMethod: request.query.payMethod, premium: request.query.premium },
      );
      return ok(found ? toCommissionRateResp(found.row) : null);
    },
  );

  action(
    app,
    '/api/rules/commission-rates/:id/revise',
    {
      config: perm(MENU_COMMISSION, 'CREATE'),
      schema: {
        tags,
        summary: 'New revision: closes the row at effectiveFrom and inserts the next version',
        params,
        body: commissionRateReviseReq,
        response: { 200: envelope(reviseResult) },
      },
    },
    async (request) => {
      const b = request.body;
      const changes: Record<string, unknown> = { rate_pct: b.ratePct };
      if (b.payMethodCond !== undefined) changes.pay_method_cond = b.payMethodCond;
      if (b.minPremium !== undefined) changes.min_premium = b.minPremium;
      const result = await reviseRule(
        app,
        request,
        { label: 'CommissionRate', table: 'commission_rate', idColumn: 'rate_id', menu: MENU_COMMISSION },
        request.params.id,
        b,
        changes,
      );
      return ok(result);
    },
  );
}
