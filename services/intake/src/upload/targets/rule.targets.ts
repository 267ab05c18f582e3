import type { Insertable } from 'kysely';
import type { z } from 'zod';
import type { ChargebackRuleTable, CommissionRateTable, PayoutRuleTable } from '@csp/db';
import { chargebackRuleFields, commissionRateFields, payoutRuleFields } from '@csp/field-tables';
import {
  cachedLookup,
  rejected,
  type ImportContext,
  type ImportTarget,
  type Prepared,
  type TargetField,
} from './target.js';
import { text } from './cells.js';
import { ownerRowSchema, type OwnerRow, type RowScope, type SaveBody } from './owner-body.js';
import { ownerColumns } from './owner-columns.js';
import { activeGrades, productIds, type ProductRef } from './references.js';

// Each row is checked by the owner's save schema (@csp/field-tables), then like the owner's
// validate hook: references exist, half-open periods, the rule's own cross-field checks.

/** Rule periods are half-open [effective_from, effective_to) (master-data checkHalfOpenPeriod). */
function periodError(from: string, to: string | null | undefined): Prepared<never> | undefined {
  return to !== undefined && to !== null && to <= from
    ? rejected('effective_to', 'must be after effective_from')
    : undefined;
}

const PERIOD_FIELDS: TargetField[] = [
  { field: 'effective_from', label: 'Effective from', type: 'DATE', required: true },
  { field: 'effective_to', label: 'Effective to (exclusive)', type: 'DATE', required: false },
];

const names = (fields: readonly TargetField[]) => fields.map((f) => f.field);

// ---- commission_rate -------------------------------------------------------------------------
type RateBody = SaveBody<
  typeof commissionRateFields,
  'commissionYear' | 'ratePct' | 'effectiveFrom',
  'payMethodCond' | 'minPremium' | 'effectiveTo'
>;
/** Import-only fields: the product by code (the owner's body takes its id). */
const rateExtra = { product_code: text(30, true), company_code: text(20) };
type RateRow = OwnerRow<RateBody, z.output<z.ZodObject<typeof rateExtra>>>;

const RATE_FIELDS: TargetField[] = [
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
];

const RATE_BODY = {
  owner: {
    name: 'CommissionRate',
    path: '/api/rules/commission-rates',
    table: 'commission_rate',
    menu: 'RULE_COMMISSION',
    fields: commissionRateFields,
  },
  fields: names(RATE_FIELDS),
  resolved: { productId: 'product_code' },
  extra: rateExtra,
};
const rateColumns = ownerColumns<RateBody, Insertable<CommissionRateTable>>(RATE_BODY);

/** commission_rate (master-data, POST /api/rules/commission-rates): the product must exist. */
export const commissionRateTarget: ImportTarget<RateRow, Insertable<CommissionRateTable>> = {
  table: 'commission_rate',
  label: 'Commission rates',
  owner: 'master-data',
  permission: { menu: 'RULE_COMMISSION', perm: 'CREATE' },
  fields: RATE_FIELDS,
  rowSchema: ownerRowSchema<RateBody, typeof rateExtra>(RATE_BODY),
  open(ctx: ImportContext) {
    const products = new Map<string, ProductRef | 'AMBIGUOUS' | undefined>();
    const key = (r: RateRow) => `${r.extra.company_code ?? ctx.companyCode ?? ''}\u0000${r.extra.product_code}`;
    return {
      async prepare(rows) {
        await cachedLookup(products, rows.map(key), (m) => productIds(ctx.db, m), undefined);
        return rows.map((r) => {
          const b = r.body;
          const product = products.get(key(r));
          if (product === undefined)
            return rejected('product_code', `product ${r.extra.product_code} does not exist`);
          if (product === 'AMBIGUOUS')
            return rejected('company_code', `product code ${r.extra.product_code} exists at several carriers`);
          return (
            periodError(b.effectiveFrom, b.effectiveTo) ?? {
              ok: true as const,
              values: rateColumns(b, ctx.cipher, {
                product_id: product.productId,
                created_by: ctx.userId,
                updated_by: ctx.userId,
              }),
            }
          );
        });
      },
      copyTable: 'commission_rate',
    };
  },
};

// ---- payout_rule -----------------------------------------------------------------------------
type PayoutBody = SaveBody<
  typeof payoutRuleFields,
  'gradeId' | 'insuranceType' | 'commissionYear' | 'payoutPct' | 'effectiveFrom',
  'payMethodCond' | 'performanceGrade' | 'effectiveTo'
>;
type PayoutRow = OwnerRow<PayoutBody, Record<string, never>>;

const PAYOUT_FIELDS: TargetField[] = [
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
];

const PAYOUT_BODY = {
  owner: {
    name: 'PayoutRule',
    path: '/api/rules/payout',
    table: 'payout_rule',
    menu: 'RULE_PAYOUT',
    fields: payoutRuleFields,
  },
  fields: names(PAYOUT_FIELDS),
};
const payoutColumns = ownerColumns<PayoutBody, Insertable<PayoutRuleTable>>(PAYOUT_BODY);

/** payout_rule (master-data, POST /api/rules/payout): the grade must exist and be active. */
export const payoutRuleTarget: ImportTarget<PayoutRow, Insertable<PayoutRuleTable>> = {
  table: 'payout_rule',
  label: 'Payout rules',
  owner: 'master-data',
  permission: { menu: 'RULE_PAYOUT', perm: 'CREATE' },
  fields: PAYOUT_FIELDS,
  rowSchema: ownerRowSchema<PayoutBody>(PAYOUT_BODY),
  open(ctx: ImportContext) {
    const grades = new Map<number, boolean | undefined>();
    return {
      async prepare(rows) {
        await cachedLookup(
          grades,
          rows.map((r) => r.body.gradeId),
          (m) => activeGrades(ctx.db, m),
          undefined,
        );
        return rows.map(({ body: b }) => {
          const grade = grades.get(b.gradeId);
          if (grade === undefined) return rejected('grade_id', `grade ${b.gradeId} not found`);
          if (!grade) return rejected('grade_id', `grade ${b.gradeId} is inactive`);
          return (
            periodError(b.effectiveFrom, b.effectiveTo) ?? {
              ok: true as const,
              values: payoutColumns(b, ctx.cipher, { created_by: ctx.userId, updated_by: ctx.userId }),
            }
          );
        });
      },
      copyTable: 'payout_rule',
    };
  },
};

// ---- chargeback_rule -------------------------------------------------------------------------
type ChargebackBody = SaveBody<
  typeof chargebackRuleFields,
  | 'companyCode'
  | 'insuranceType'
  | 'lapseMonthFrom'
  | 'cbRate'
  | 'includeOverride'
  | 'installmentAllowed'
  | 'maxInstallments'
  | 'effectiveFrom',
  'lapseMonthTo' | 'effectiveTo'
>;
type ChargebackRow = OwnerRow<ChargebackBody, Record<string, never>>;

const CHARGEBACK_FIELDS: TargetField[] = [
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
];

const CHARGEBACK_BODY = {
  owner: {
    name: 'ChargebackRule',
    path: '/api/rules/chargeback',
    table: 'chargeback_rule',
    menu: 'RULE_CHARGEBACK',
    fields: chargebackRuleFields,
  },
  fields: names(CHARGEBACK_FIELDS),
  // a blank carrier is the template's
  defaults: (scope: RowScope) => (scope.companyCode === null ? {} : { company_code: scope.companyCode }),
};
const chargebackColumns = ownerColumns<ChargebackBody, Insertable<ChargebackRuleTable>>(CHARGEBACK_BODY);

/** chargeback_rule (master-data, POST /api/rules/chargeback): the carrier must exist; lapse months ordered. */
export const chargebackRuleTarget: ImportTarget<ChargebackRow, Insertable<ChargebackRuleTable>> = {
  table: 'chargeback_rule',
  label: 'Chargeback rules',
  owner: 'master-data',
  permission: { menu: 'RULE_CHARGEBACK', perm: 'CREATE' },
  fields: CHARGEBACK_FIELDS,
  rowSchema: ownerRowSchema<ChargebackBody>(CHARGEBACK_BODY),
  open(ctx: ImportContext) {
    const companies = new Map<string, boolean>();
    return {
      async prepare(rows) {
        await cachedLookup(
          companies,
          rows.map((r) => r.body.companyCode),
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
        return rows.map(({ body: b }) => {
          if (!companies.get(b.companyCode))
            return rejected('company_code', `insurance company ${b.companyCode} does not exist`);
          if (b.lapseMonthTo !== undefined && b.lapseMonthTo !== null && b.lapseMonthTo < b.lapseMonthFrom) {
            return rejected('lapse_month_to', 'must not be less than lapse_month_from');
          }
          if (!b.installmentAllowed && b.maxInstallments > 1) {
            return rejected('max_installments', 'must be 1 unless installment_allowed');
          }
          return (
            periodError(b.effectiveFrom, b.effectiveTo) ?? {
              ok: true as const,
              values: chargebackColumns(b, ctx.cipher, { created_by: ctx.userId, updated_by: ctx.userId }),
            }
          );
        });
      },
      copyTable: 'chargeback_rule',
    };
  },
};
