import { z } from 'zod';
import { lookupCommissionRate, type CommissionRateRow } from '@csp/domain';
import { action, envelope, ok, perm, readDb, registerResource, today, zDate, zId, zMoney, type AnyRow, type ServiceApp } from '@csp/service-kit';
import { nonNegative } from '../common/rules.js';
import { reviseBase, reviseResult, reviseRule } from '../common/rule-revision.js';
import { commissionRateResource, MENU_COMMISSION } from './commission-rates.resource.js';

const tags = ['Commission rate'];

interface RateRevision {
  effectiveFrom: string;
  version?: number;
  ratePct: string;
  payMethodCond?: string | null;
  minPremium?: string | null;
}

const reviseReq = commissionRateResource.schemas.save.pick({ ratePct: true, payMethodCond: true, minPremium: true }).extend(reviseBase);

const lookupQuery = z.object({
  productId: zId,
  commissionYear: z.coerce.number().int().min(1),
  /** Base date; default today. */
  date: zDate.optional(),
  /** When given, rows with another non-NULL pay_method_cond do not apply. */
  payMethod: z.string().trim().max(30).optional(),
  /** When given, rows whose min_premium exceeds it do not apply. */
  premium: nonNegative(zMoney).optional(),
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
        response: { 200: envelope(commissionRateResource.schemas.response.nullable()) },
      },
    },
    async (request) => {
      const { productId, commissionYear, payMethod, premium } = request.query;
      const date = request.query.date ?? today();
      const rows = await commissionRateResource
        .select(await readDb(request))
        .where('cr.product_id', '=', productId)
        .where('cr.commission_year', '=', commissionYear)
        .where('cr.effective_from', '<=', date)
        .execute();
      const found = lookupCommissionRate(
        // the rows carry the field keys (productId, ratePct, ...) with the raw column values
        rows as Array<CommissionRateRow & AnyRow>,
        { productId, commissionYear, date, payMethod, premium },
      );
      return ok(found ? commissionRateResource.toResp(found, app.cipher) : null);
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
        params: z.object({ id: zId }),
        body: reviseReq,
        response: { 200: envelope(reviseResult) },
      },
    },
    async (request) => {
      const b = request.body as RateRevision;
      const changes: Record<string, unknown> = { rate_pct: b.ratePct };
      if (b.payMethodCond !== undefined) changes.pay_method_cond = b.payMethodCond;
      if (b.minPremium !== undefined) changes.min_premium = b.minPremium;
      const rule = { label: 'CommissionRate', table: 'commission_rate', idColumn: 'rate_id', menu: MENU_COMMISSION } as const;
      return ok(await reviseRule(app.db, request, rule, request.params.id, b, changes));
    },
  );
}
