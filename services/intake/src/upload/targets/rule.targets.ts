import { z } from 'zod';
import type { Insertable } from 'kysely';
import type { ChargebackRuleTable, CommissionRateTable, PayoutRuleTable } from '@csp/db';
import {
  cachedLookup,
  rejected,
  type ImportContext,
  type ImportTarget,
  type Prepared,
  type TargetField,
} from './target.js';
import { bool, date, id, int, money, rate, text } from './cells.js';
import { activeGrades, productIds } from './references.js';

/** Rule periods are half-open [effective_from, effective_to) (master-data rule-support). */
function periodError(from: string, to: string | undefined): Prepared<never> | undefined {
  return to !== undefined && to <= from
    ? rejected('effective_to', 'must be after effective_from')
    : undefined;
}

const PERIOD_FIELDS: TargetField[] = [
  { field: 'effective_from', label: 'Effective from', type: 'DATE', required: true },
  { field: 'effective_to', label: 'Effective to (exclusive)', type: 'DATE', required: false },
];

// ---- commission_rate -------------------------------------------------------------------------
const rateSchema = z.object({
  product_code: text(30, true),
  company_code: text(20),
  commission_year: int(1, 99, true),
  rate_pct: rate(true),
  pay_method_cond: text(30),
  min_premium: money(),
  effective_from: date(true),
  effective_to: date(),
});
type RateRow = z.output<typeof rateSchema>;

/** commission_rate (master-data, POST /api/rules/commission-rates): the product must exist. */
export const commissionRateTarget: ImportTarget<RateRow, Insertable<CommissionRateTable>> = {
  table: 'commission_rate',
  label: 'Commission rates',
  owner: 'master-data',
  permission: { menu: 'RULE_COMMISSION', perm: 'CREATE' },
  fields: [
    { field: 'product_code', label: 'Product code', type: 'STRING', required: true },
    {
      field: 'company_code',
      label: 'Company code',
      type: 'STRING',
      required: false,
      description: "default the template's",
    },
    { field: 'commission_year', label: 'Commission year', type: 'INTEGER', required: true },
    { field: 'rate_pct', label: 'Rate (%)', type: 'RATE', required: true },
    { field: 'pay_method_cond', label: 'Pay method condition', type: 'STRING', required: false },
    { field: 'min_premium', label: 'Minimum premium', type: 'AMOUNT', required: false },
    ...PERIOD_FIELDS,
  ],
  schema: rateSchema,
  open(ctx: ImportContext) {
    const products = new Map<string, number | 'AMBIGUOUS' | undefined>();
    const key = (r: RateRow) => `${r.company_code ?? ctx.companyCode ?? ''}\u0000${r.product_code}`;
    return {
      async prepare(rows) {
        await cachedLookup(products, rows.map(key), (m) => productIds(ctx.db, m), undefined);
        return rows.map((r) => {
          const productId = products.get(key(r));
          if (productId === undefined)
            return rejected('product_code', `product ${r.product_code} does not exist`);
          if (productId === 'AMBIGUOUS')
            return rejected('company_code', `product code ${r.product_code} exists at several carriers`);
          return (
            periodError(r.effective_from, r.effective_to) ?? {
              ok: true as const,
              values: {
                product_id: productId,
                commission_year: r.commission_year,
                rate_pct: r.rate_pct,
                pay_method_cond: r.pay_method_cond ?? null,
                min_premium: r.min_premium ?? null,
                effective_from: r.effective_from,
                effective_to: r.effective_to ?? null,
                created_by: ctx.userId,
                updated_by: ctx.userId,
              },
            }
          );
        });
      },
      copyTable: 'commission_rate',
      async insert(trx, rows) {
        await trx
          .insertInto('commission_rate')
          .values([...rows])
          .execute();
      },
    };
  },
};

// ---- payout_rule -----------------------------------------------------------------------------
const payoutSchema = z.object({
  grade_id: id(true),
  insurance_type: text(30, true),
  commission_year: int(1, 99, true),
  payout_pct: rate(true),
  pay_method_cond: text(30),
  performance_grade: text(20),
  effective_from: date(true),
  effective_to: date(),
});
type PayoutRow = z.output<typeof payoutSchema>;

/** payout_rule (master-data, POST /api/rules/payout): the grade must exist and be active. */
export const payoutRuleTarget: ImportTarget<PayoutRow, Insertable<PayoutRuleTable>> = {
  table: 'payout_rule',
  label: 'Payout rules',
  owner: 'master-data',
  permission: { menu: 'RULE_PAYOUT', perm: 'CREATE' },
  fields: [
    {
      field: 'grade_id',
      label: 'Grade ID',
      type: 'INTEGER',
      required: true,
      description: 'or LOOKUP:GRADE_BY_CODE',
    },
    { field: 'insurance_type', label: 'Insurance type', type: 'STRING', required: true },
    { field: 'commission_year', label: 'Commission year', type: 'INTEGER', required: true },
    { field: 'payout_pct', label: 'Payout (%)', type: 'RATE', required: true },
    { field: 'pay_method_cond', label: 'Pay method condition', type: 'STRING', required: false },
    { field: 'performance_grade', label: 'Performance grade', type: 'STRING', required: false },
    ...PERIOD_FIELDS,
  ],
  schema: payoutSchema,
  open(ctx: ImportContext) {
    const grades = new Map<number, boolean | undefined>();
    return {
      async prepare(rows) {
        await cachedLookup(
          grades,
          rows.map((r) => r.grade_id),
          (m) => activeGrades(ctx.db, m),
          undefined,
        );
        return rows.map((r) => {
          const grade = grades.get(r.grade_id);
          if (grade === undefined) return rejected('grade_id', `grade ${r.grade_id} not found`);
          if (!grade) return rejected('grade_id', `grade ${r.grade_id} is inactive`);
          return (
            periodError(r.effective_from, r.effective_to) ?? {
              ok: true as const,
              values: {
                grade_id: r.grade_id,
                insurance_type: r.insurance_type,
                commission_year: r.commission_year,
                payout_pct: r.payout_pct,
                pay_method_cond: r.pay_method_cond ?? null,
                performance_grade: r.performance_grade ?? null,
                effective_from: r.effective_from,
                effective_to: r.effective_to ?? null,
                created_by: ctx.userId,
                updated_by: ctx.userId,
              },
            }
          );
        });
      },
      copyTable: 'payout_rule',
      async insert(trx, rows) {
        await trx
          .insertInto('payout_rule')
          .values([...rows])
          .execute();
      },
    };
  },
};

// ---- chargeback_rule -------------------------------------------------------------------------
const chargebackSchema = z.object({
  company_code: text(20),
  insurance_type: text(30, true),
  lapse_month_from: int(0, 1200, true),
  lapse_month_to: int(0, 1200),
  cb_rate: rate(true),
  include_override: bool(false),
  installment_allowed: bool(false),
  max_installments: int(1, 120),
  effective_from: date(true),
  effective_to: date(),
});
type ChargebackRow = z.output<typeof chargebackSchema>;

/** chargeback_rule (master-data, POST /api/rules/chargeback): the carrier must exist; lapse months ordered. */
export const chargebackRuleTarget: ImportTarget<ChargebackRow, Insertable<ChargebackRuleTable>> = {
  table: 'chargeback_rule',
  label: 'Chargeback rules',
  owner: 'master-data',
  permission: { menu: 'RULE_CHARGEBACK', perm: 'CREATE' },
  fields: [
    {
      field: 'company_code',
      label: 'Company code',
      type: 'STRING',
      required: false,
      description: "default the template's",
    },
    { field: 'insurance_type', label: 'Insurance type', type: 'STRING', required: true },
    { field: 'lapse_month_from', label: 'Lapse month from', type: 'INTEGER', required: true },
    { field: 'lapse_month_to', label: 'Lapse month to', type: 'INTEGER', required: false },
    { field: 'cb_rate', label: 'Chargeback rate (%)', type: 'RATE', required: true },
    { field: 'include_override', label: 'Include override', type: 'BOOLEAN', required: false },
    { field: 'installment_allowed', label: 'Installments allowed', type: 'BOOLEAN', required: false },
    { field: 'max_installments', label: 'Max installments', type: 'INTEGER', required: false },
    ...PERIOD_FIELDS,
  ],
  schema: chargebackSchema,
  open(ctx: ImportContext) {
    const companies = new Map<string, boolean>();
    return {
      async prepare(rows) {
        const codeOf = (r: ChargebackRow) => r.company_code ?? ctx.companyCode ?? '';
        await cachedLookup(
          companies,
          rows.map(codeOf),
          async (m) => {
            const found = await ctx.db
              .selectFrom('insurance_company')
              .select('company_code')
              .where('company_code', 'in', m)
              .execute();
            return new Map(found.map((c) => [c.company_code, true]));
          },
          false,
        );
        return rows.map((r) => {
          const company = codeOf(r);
          if (company === '') return rejected('company_code', 'is required (the template has no carrier)');
          if (!companies.get(company))
            return rejected('company_code', `insurance company ${company} does not exist`);
          if (r.lapse_month_to !== undefined && r.lapse_month_to < r.lapse_month_from) {
            return rejected('lapse_month_to', 'must not be less than lapse_month_from');
          }
          const maxInstallments = r.max_installments ?? 1;
          if (!r.installment_allowed && maxInstallments !== 1) {
            return rejected('max_installments', 'must be 1 unless installment_allowed');
          }
          return (
            periodError(r.effective_from, r.effective_to) ?? {
              ok: true as const,
              values: {
                company_code: company,
                insurance_type: r.insurance_type,
                lapse_month_from: r.lapse_month_from,
                lapse_month_to: r.lapse_month_to ?? null,
                cb_rate: r.cb_rate,
                include_override: r.include_override,
                installment_allowed: r.installment_allowed,
                max_installments: maxInstallments,
                effective_from: r.effective_from,
                effective_to: r.effective_to ?? null,
                created_by: ctx.userId,
                updated_by: ctx.userId,
              },
            }
          );
        });
      },
      copyTable: 'chargeback_rule',
      async insert(trx, rows) {
        await trx
          .insertInto('chargeback_rule')
          .values([...rows])
          .execute();
      },
    };
  },
};
