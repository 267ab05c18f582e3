import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zDate, zId, type ServiceApp } from '@csp/service-kit';
import { lookupPayoutRate } from '@csp/domain';
import { reviseBase, reviseResult, reviseRule } from '../commission-rates/rule-revision.js';
import { today, zNonNegativeRate } from '../rule-support.js';
import {
  MENU_PAYOUT,
  payoutRuleResource,
  payoutRuleResp,
  toPayoutRuleResp,
  zInsuranceType,
  type PayoutRuleRow,
} from './payout-rule-resource.js';

const tags = ['Payout rule'];
const params = z.object({ id: zId });

const payoutRuleReviseReq = z.object({
  ...reviseBase,
  payoutPct: zNonNegativeRate,
  payMethodCond: z.string().trim().max(30).nullable().optional(),
  performanceGrade: z.string().trim().max(20).nullable().optional(),
});

const lookupQuery = z.object({
  gradeId: zId,
  insuranceType: zInsuranceType,
  commissionYear: z.coerce.number().int().min(1),
  /** Base date; default today. */
  date: zDate.optional(),
  /** When given, rows with another non-NULL pay_method_cond do not apply. */
  payMethod: z.string().trim().max(30).optional(),
});

export async function registerPayoutRuleRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, payoutRuleResource);

  app.get(
    '/api/rules/payout/lookup',
    {
      config: perm(MENU_PAYOUT, 'READ'),
      schema: {
        tags,
        summary: 'Payout rule valid on a date (domain half-open lookup, newest version); data null when none',
        querystring: lookupQuery,
        response: { 200: envelope(payoutRuleResp.nullable()) },
      },
    },
    async (request) => {
      const { gradeId, insuranceType, commissionYear } = request.query;
      const date = request.query.date ?? today();
      const rows = (await payoutRuleResource.baseQuery!(app.db)
        .select(payoutRuleResource.columns as any)
        .where('pr.grade_id', '=', gradeId)
        .where('pr.insurance_type', '=', insuranceType)
        .where('pr.commission_year', '=', commissionYear)
        .where('pr.effective_from', '<=', date)
        .execute()) as PayoutRuleRow[];
      const found = lookupPayoutRate(
        rows.map((row) => ({
          gradeId: row.grade_id,
          insuranceType: row.insurance_type,
          commissionYear: row.commission_year,
          payoutPct: row.payout_pct,
          payMethodCond: row.pay_method_cond,
          effectiveFrom: row.effective_from,
          effectiveTo: row.effective_to,
          version: row.version,
          row,
        })),
        { gradeId, insuranceType, commissionYear, date, payMethod: request.query.payMethod },
      );
      return ok(found ? toPayoutRuleResp(found.row) : null);
    },
  );

  action(
    app,
    '/api/rules/payout/:id/revise',
    {
      config: perm(MENU_PAYOUT, 'CREATE'),
      schema: {
        tags,
        summary: 'New revision: closes the row at effectiveFrom and inserts the next version',
        params,
        body: payoutRuleReviseReq,
        response: { 200: envelope(reviseResult) },
      },
    },
    async (request) => {
      const b = request.body;
      const changes: Record<string, unknown> = { payout_pct: b.payoutPct };
      if (b.payMethodCond !== undefined) changes.pay_method_cond = b.payMethodCond;
      if (b.performanceGrade !== undefined) changes.performance_grade = b.performanceGrade;
      const result = await reviseRule(
        app,
        request,
        { label: 'PayoutRule', table: 'payout_rule', idColumn: 'rule_id', menu: MENU_PAYOUT },
        request.params.id,
        b,
        changes,
      );
      return ok(result);
    },
  );
}
