import { z } from 'zod';
import { calcDifferentialChargeback, formatMoney, formatRate } from '@csp/domain';
import { envelope, invalid, ok, perm, registerResource, zDate, zMoney, type ServiceApp } from '@csp/service-kit';
import { PRODUCT_CATEGORIES } from '@csp/db';
import { nonNegative } from '../common/rules.js';
import { chargebackGradeResource, MENU_CHARGEBACK_GRADE, monthsRange } from './chargeback-grades.resource.js';

const tags = ['Chargeback grade'];

const chargebackCalcReq = z.object({
  contractDate: zDate,
  terminationDate: zDate,
  originalCommission: nonNegative(zMoney),
  /** The product's category; omitted or null: only the all-category bands apply. */
  productCategory: z.enum(PRODUCT_CATEGORIES).nullable().optional(),
  /** Date the bands must be valid on; default the termination date. */
  baseDate: zDate.optional(),
});

const chargebackCalcResp = z.object({
  chargebackAmount: z.string(),
  monthsElapsed: z.number().int(),
  appliedPercent: z.string(),
  /** 'no applicable chargeback band' when no band applies (amount 0), else null. */
  reason: z.string().nullable(),
  cbGradeId: z.number().int().nullable(),
  monthsRange: z.string().nullable(),
});

export async function registerChargebackGradeRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, chargebackGradeResource);

  app.post(
    '/api/chargeback-grades/calculate',
    {
      config: perm(MENU_CHARGEBACK_GRADE, 'READ'),
      schema: {
        tags,
        summary: 'Differential chargeback of a terminated contract (spec 1.2 rule 7)',
        body: chargebackCalcReq,
        response: { 200: envelope(chargebackCalcResp) },
      },
    },
    async (request) => {
      const b = request.body;
      if (b.terminationDate < b.contractDate) throw invalid('terminationDate', 'must not be before contractDate');
      // Every active band; the domain picks category, months and validity date (rule 7 lookup).
      const rows = await app.db
        .selectFrom('chargeback_grade')
        .select(['cb_grade_id', 'product_category', 'months_from', 'months_to', 'percent', 'effective_from', 'effective_to', 'is_active'])
        .where('is_active', '=', true)
        .execute();
      const result = calcDifferentialChargeback({
        grades: rows.map((r) => ({
          gradeId: r.cb_grade_id,
          productCategory: r.product_category,
          monthsFrom: r.months_from,
          monthsTo: r.months_to,
          percent: r.percent,
          effectiveFrom: r.effective_from,
          effectiveTo: r.effective_to,
          isActive: r.is_active,
        })),
        productCategory: b.productCategory ?? null,
        contractDate: b.contractDate,
        terminationDate: b.terminationDate,
        baseDate: b.baseDate,
        originalCommission: b.originalCommission,
      });
      return ok({
        chargebackAmount: formatMoney(result.chargebackAmount),
        monthsElapsed: result.monthsElapsed,
        appliedPercent: formatRate(result.percent),
        reason: result.reason ?? null,
        cbGradeId: result.grade?.gradeId ?? null,
        monthsRange: result.grade ? monthsRange(result.grade.monthsFrom, result.grade.monthsTo) : null,
      });
    },
  );
}
