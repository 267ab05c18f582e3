import { z } from 'zod';
import { lookupPayoutRate, type PayoutRuleRow } from '@csp/domain';
import { action, envelope, ok, perm, readDb, registerResource, today, zDate, zId, type AnyRow, type ServiceApp } from '@csp/service-kit';
import { reviseBase, reviseResult, reviseRule } from '../common/rule-revision.js';
import { INSURANCE_TYPE_CODE, MENU_PAYOUT, payoutRuleResource } from './payout-rules.resource.js';

const tags = ['Payout rule'];

interface PayoutRevision {
  effectiveFrom: string;
  version?: number;
  payoutPct: string;
  payMethodCond?: string | null;
  performanceGrade?: string | null;
}

const reviseReq = payoutRuleResource.schemas.save.pick({ payoutPct: true, payMethodCond: true, performanceGrade: true }).extend(reviseBase);

const lookupQuery = z.object({
  gradeId: zId,
  insuranceType: z.string().trim().min(INSURANCE_TYPE_CODE.min).max(INSURANCE_TYPE_CODE.max).regex(INSURANCE_TYPE_CODE.pattern, INSURANCE_TYPE_CODE.patternMessage),
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
        response: { 200: envelope(payoutRuleResource.schemas.response.nullable()) },
      },
    },
    async (request) => {
      const { gradeId, insuranceType, commissionYear, payMethod } = request.query;
      const date = request.query.date ?? today();
      const rows = await payoutRuleResource
        .select(await readDb(request))
        .where('pr.grade_id', '=', gradeId)
        .where('pr.insurance_type', '=', insuranceType)
        .where('pr.commission_year', '=', commissionYear)
        .where('pr.effective_from', '<=', date)
        .execute();
      // the rows carry the field keys (gradeId, payoutPct, ...) with the raw column values
      const found = lookupPayoutRate(rows as Array<PayoutRuleRow & AnyRow>, { gradeId, insuranceType, commissionYear, date, payMethod });
      return ok(found ? payoutRuleResource.toResp(found, app.cipher) : null);
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
        params: z.object({ id: zId }),
        body: reviseReq,
        response: { 200: envelope(reviseResult) },
      },
    },
    async (request) => {
      const b = request.body as PayoutRevision;
      const changes: Record<string, unknown> = { payout_pct: b.payoutPct };
      if (b.payMethodCond !== undefined) changes.pay_method_cond = b.payMethodCond;
      if (b.performanceGrade !== undefined) changes.performance_grade = b.performanceGrade;
      const rule = { label: 'PayoutRule', table: 'payout_rule', idColumn: 'rule_id', menu: MENU_PAYOUT } as const;
      return ok(await reviseRule(app.db, request, rule, request.params.id, b, changes));
    },
  );
}
