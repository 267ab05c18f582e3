import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  checkInstallmentYears,
  formatMoney,
  formatRate,
  generateInstallmentPlan,
  lookupRegulatoryLimit,
  selectInstallmentRatios,
  settleMonthOfDate,
} from '@csp/domain';
import { AppError, invalid, notFound, today, zDate, zId, zMoney, type FieldCipher } from '@csp/service-kit';
import { INSTALLMENT_STATUSES, type Db } from '@csp/db';
import { nonNegative, productCategoryOf } from '../common/rules.js';
import { activeLimits } from '../regulatory-limits/regulatory-limits.repository.js';
import { installmentPlanResource, MENU_INSTALLMENT_PLAN } from './installment-plans.resource.js';

export const generatePlanReq = z.object({
  contractId: zId,
  /** Amount spread over the plan; default the contract's recruit commission (agent_amount) so far. */
  totalAmount: nonNegative(zMoney).optional(),
  /** Start of the plan and date the ratios must be valid on; default the contract date. */
  baseDate: zDate.optional(),
});

export const generatePlanResp = z.object({
  contractId: z.number().int(),
  baseDate: z.string(),
  productCategory: z.string().nullable(),
  totalAmount: z.string(),
  firstSettleMonth: z.string(),
  /** Rows of the previous plan that were replaced. */
  replacedCount: z.number().int(),
  list: z.array(installmentPlanResource.schemas.response),
});

export const planStatusReq = z.object({
  status: z.enum(INSTALLMENT_STATUSES),
  /** Only with PAID; default the planned amount. */
  paidAmount: nonNegative(zMoney).nullable().optional(),
  /** Only with PAID; default now. */
  paidAt: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Only with PAID. */
  paymentId: zId.nullable().optional(),
});

/**
 * The amount a plan spreads when none is given: the contract's recruit commission (agent_amount of
 * recruit_ledger, a ledger-settlement table read only when it exists), summed in SQL.
 */
async function defaultTotal(db: Db, contractId: number): Promise<string | null> {
  const { rows } = await sql<{ present: boolean }>`SELECT to_regclass('public.recruit_ledger') IS NOT NULL AS present`.execute(db);
  if (!rows[0]?.present) return null;
  const sum = await sql<{ total: string | null }>`
    SELECT sum(agent_amount)::text AS total FROM recruit_ledger WHERE contract_id = ${contractId}`.execute(db);
  const total = sum.rows[0]?.total ?? null;
  return total !== null && /[1-9]/.test(total) ? total : null;
}

async function checkYearsLimit(db: Db, ratios: ReadonlyArray<{ planYear: number }>, category: string | null, date: string): Promise<void> {
  const limit = lookupRegulatoryLimit(await activeLimits(db, ['INSTALLMENT_YEARS']), {
    limitType: 'INSTALLMENT_YEARS',
    productCategory: category,
    date,
  });
  if (!limit) return;
  const years = Math.max(...ratios.map((r) => r.planYear));
  if (checkInstallmentYears(limit, years).violated) {
    throw new AppError('BAD_REQUEST', `The ratios span ${years} years, beyond the installment limit of ${String(limit.limitValue)} years`);
  }
}

/**
 * Rule 9: generates (or regenerates) a contract's plan from the active ratios valid on the base date
 * (domain selectInstallmentRatios: the product category's set, else the NULL/'ALL' set) with the
 * domain generator. Idempotent: a regeneration replaces the whole unpaid plan; once any installment
 * is PAID the plan is fixed (E400). Plan years beyond the INSTALLMENT_YEARS limit are E400.
 */
export async function generatePlan(db: Db, cipher: FieldCipher, request: FastifyRequest, req: z.output<typeof generatePlanReq>) {
  const userId = request.user?.userId ?? null;
  const outcome = await db.transaction().execute(async (trx) => {
    // The contract row lock serialises generations of one plan.
    const contract = await trx
      .selectFrom('contract')
      .select(['contract_id', 'product_id', 'contract_date'])
      .where('contract_id', '=', req.contractId)
      .forUpdate()
      .executeTakeFirst();
    if (!contract) throw notFound(`Contract ${req.contractId}`);
    const product = await trx
      .selectFrom('product')
      .select(['product_group', 'insurance_type'])
      .where('product_id', '=', contract.product_id)
      .executeTakeFirstOrThrow();
    const existing = await trx.selectFrom('installment_plan').selectAll().where('contract_id', '=', req.contractId).execute();
    if (existing.some((r) => r.status === 'PAID')) {
      throw new AppError('BAD_REQUEST', 'The plan has PAID installments and cannot be regenerated');
    }

    const baseDate = req.baseDate ?? contract.contract_date ?? today();
    const category = productCategoryOf(product);
    const total = req.totalAmount ?? (await defaultTotal(trx, req.contractId));
    if (total === null) throw invalid('totalAmount', 'is required: the contract has no recruit commission to spread');

    const ratioRows = await trx.selectFrom('installment_ratio').selectAll().where('is_active', '=', true).execute();
    const ratios = selectInstallmentRatios(
      ratioRows.map((r) => ({
        ratioId: r.ratio_id,
        productCategory: r.product_category,
        planYear: r.plan_year,
        planMonth: r.plan_month,
        ratioPercent: r.ratio_percent,
        effectiveFrom: r.effective_from,
        effectiveTo: r.effective_to,
        isActive: r.is_active,
      })),
      { productCategory: category, date: baseDate },
    );
    if (ratios.length === 0) throw invalid('baseDate', `no active installment ratios are valid on ${baseDate}`);
    await checkYearsLimit(trx, ratios, category, baseDate);

    const firstSettleMonth = settleMonthOfDate(baseDate);
    const plan = generateInstallmentPlan({ ratios, firstSettleMonth, total });

    await trx.deleteFrom('installment_plan').where('contract_id', '=', req.contractId).execute();
    const inserted = await trx
      .insertInto('installment_plan')
      .values(
        plan.map((row) => ({
          contract_id: req.contractId,
          plan_year: row.planYear,
          // An annual ratio (plan_month NULL) falls on month 1 of its plan year (rule 9).
          plan_month: row.planMonth ?? 1,
          settle_month: row.settleMonth,
          ratio_percent: formatRate(row.ratioPercent),
          planned_amount: formatMoney(row.amount),
          created_by: userId,
          updated_by: userId,
        })),
      )
      .returningAll()
      .execute();
    const rows = await installmentPlanResource.select(trx).where('ip.contract_id', '=', req.contractId).orderBy('ip.settle_month').execute();
    return { existing, inserted, baseDate, category, total, firstSettleMonth, list: rows.map((row) => installmentPlanResource.toResp(row, cipher)) };
  });

  for (const row of outcome.existing) {
    request.changeLog({ menuCode: MENU_INSTALLMENT_PLAN, tableName: 'installment_plan', recordId: row.plan_id, action: 'DELETE', before: row });
  }
  for (const row of outcome.inserted) {
    request.changeLog({ menuCode: MENU_INSTALLMENT_PLAN, tableName: 'installment_plan', recordId: row.plan_id, action: 'CREATE', after: row });
  }
  return {
    contractId: req.contractId,
    baseDate: outcome.baseDate,
    productCategory: outcome.category,
    totalAmount: formatMoney(outcome.total),
    firstSettleMonth: outcome.firstSettleMonth,
    replacedCount: outcome.existing.length,
    list: outcome.list,
  };
}

/**
 * The one status operation of spec 3.3: PAID records paid amount (default the planned amount), paid
 * time (default now) and payment id; any other status clears them. The paid fields with another
 * status are E411.
 */
export async function updatePlanStatus(db: Db, request: FastifyRequest, id: number, req: z.output<typeof planStatusReq>): Promise<void> {
  const paid = req.status === 'PAID';
  if (!paid) {
    for (const field of ['paidAmount', 'paidAt', 'paymentId'] as const) {
      if (req[field] != null) throw invalid(field, 'can only be set with status PAID');
    }
  }
  const userId = request.user?.userId ?? null;
  const { before, after } = await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('installment_plan').selectAll().where('plan_id', '=', id).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`InstallmentPlan ${id}`);
    const after = await trx
      .updateTable('installment_plan')
      .set({
        status: req.status,
        paid_amount: paid ? (req.paidAmount ?? before.planned_amount) : null,
        paid_at: paid ? (req.paidAt ?? new Date()) : null,
        payment_id: paid ? (req.paymentId ?? before.payment_id) : null,
        updated_at: new Date(),
        updated_by: userId,
      })
      .where('plan_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
  request.changeLog({ menuCode: MENU_INSTALLMENT_PLAN, tableName: 'installment_plan', recordId: id, action: 'UPDATE', before, after });
}
