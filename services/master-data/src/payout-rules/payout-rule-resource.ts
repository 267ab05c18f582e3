import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, isoTimestamp, rate, rateColumn, zDate, zId } from '@csp/service-kit';
import {
  checkHalfOpenPeriod,
  codeName,
  effectiveFields,
  insertAudit,
  requireReference,
  updateAudit,
  validOnHalfOpen,
  zNonNegativeRate,
} from '../rule-support.js';

export const MENU_PAYOUT = 'RULE_PAYOUT';

export const zInsuranceType = z.string().trim().min(1).max(30).regex(/^[A-Z0-9_]+$/, 'must be an insurance type code');

export const payoutRuleSaveReq = z.object({
  gradeId: zId,
  insuranceType: zInsuranceType,
  commissionYear: z.number().int().min(1).max(99),
  payoutPct: zNonNegativeRate,
  payMethodCond: z.string().trim().max(30).nullable().optional(),
  performanceGrade: z.string().trim().max(20).nullable().optional(),
  ...effectiveFields,
});
export type PayoutRuleSaveReq = z.output<typeof payoutRuleSaveReq>;

export const payoutRuleResp = z.object({
  ruleId: z.number().int(),
  gradeId: z.number().int(),
  gradeName: z.string().nullable(),
  insuranceType: z.string(),
  insuranceTypeName: z.string().nullable(),
  commissionYear: z.number().int(),
  payoutPct: z.string(),
  payMethodCond: z.string().nullable(),
  performanceGrade: z.string().nullable(),
  effectiveFrom: z.string(),
  effectiveTo: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export interface PayoutRuleRow {
  rule_id: number;
  grade_id: number;
  grade_name: string | null;
  insurance_type: string;
  insurance_type_name: string | null;
  commission_year: number;
  payout_pct: string;
  pay_method_cond: string | null;
  performance_grade: string | null;
  effective_from: string;
  effective_to: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export function toPayoutRuleResp(r: PayoutRuleRow): z.input<typeof payoutRuleResp> {
  return {
    ruleId: r.rule_id,
    gradeId: r.grade_id,
    gradeName: r.grade_name,
    insuranceType: r.insurance_type,
    insuranceTypeName: r.insurance_type_name,
    commissionYear: r.commission_year,
    payoutPct: rate(r.payout_pct),
    payMethodCond: r.pay_method_cond,
    performanceGrade: r.performance_grade,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  };
}

const columnsOf = (b: PayoutRuleSaveReq) => ({
  grade_id: b.gradeId,
  insurance_type: b.insuranceType,
  commission_year: b.commissionYear,
  payout_pct: b.payoutPct,
  pay_method_cond: b.payMethodCond ?? null,
  performance_grade: b.performanceGrade ?? null,
  effective_from: b.effectiveFrom,
  effective_to: b.effectiveTo ?? null,
});

/** Payout rules (RULE_PAYOUT: READ/CREATE/UPDATE/DELETE); update needs `version` (B002). */
export const payoutRuleResource = defineResource({
  name: 'PayoutRule',
  basePath: '/api/rules/payout',
  table: 'payout_rule',
  idColumn: 'pr.rule_id',
  menu: MENU_PAYOUT,
  tags: ['Payout rule'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('payout_rule as pr')
      .leftJoin('grade as g', 'g.grade_id', 'pr.grade_id')
      .select((eb) => codeName('INSURANCE_TYPE', eb.ref('pr.insurance_type')).as('insurance_type_name')),
  columns: [
    'pr.rule_id',
    'pr.grade_id',
    'g.grade_name',
    'pr.insurance_type',
    'pr.commission_year',
    'pr.payout_pct',
    'pr.pay_method_cond',
    'pr.performance_grade',
    'pr.effective_from',
    'pr.effective_to',
    'pr.version',
    'pr.created_at',
    'pr.updated_at',
  ],
  respSchema: payoutRuleResp,
  toResp: toPayoutRuleResp,
  saveSchema: payoutRuleSaveReq,
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b);
    await requireReference(ctx.trx, 'grade', 'grade_id', b.gradeId, 'gradeId', 'grade');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      gradeId: zId.optional(),
      insuranceType: z.string().trim().max(30).optional(),
      commissionYear: z.coerce.number().int().min(1).optional(),
      effectiveDate: zDate.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.gradeId !== undefined) q = q.where('pr.grade_id', '=', f.gradeId);
      if (f.insuranceType) q = q.where('pr.insurance_type', '=', f.insuranceType);
      if (f.commissionYear !== undefined) q = q.where('pr.commission_year', '=', f.commissionYear);
      if (f.effectiveDate) q = q.where(validOnHalfOpen('pr', f.effectiveDate));
      return q;
    },
  },
  sortable: {
    ruleId: 'pr.rule_id',
    gradeId: 'pr.grade_id',
    insuranceType: 'pr.insurance_type',
    commissionYear: 'pr.commission_year',
    payoutPct: 'pr.payout_pct',
    effectiveFrom: 'pr.effective_from',
    version: 'pr.version',
  },
  defaultSort: 'pr.rule_id',
  searchable: { gradeName: 'g.grade_name', insuranceType: 'pr.insurance_type', performanceGrade: 'pr.performance_grade' },
  dateColumn: 'pr.effective_from',
  versionColumn: 'pr.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Rule ID', key: 'rule_id' },
    { header: 'Grade ID', key: 'grade_id' },
    { header: 'Grade', key: 'grade_name', width: 20 },
    { header: 'Insurance type', key: 'insurance_type' },
    { header: 'Commission year', key: 'commission_year' },
    rateColumn<PayoutRuleRow>('Payout (%)', 'payout_pct'),
    { header: 'Pay method', key: 'pay_method_cond' },
    { header: 'Performance grade', key: 'performance_grade' },
    { header: 'Effective from', key: 'effective_from' },
    { header: 'Effective to', key: 'effective_to' },
    { header: 'Version', key: 'version' },
  ],
});
