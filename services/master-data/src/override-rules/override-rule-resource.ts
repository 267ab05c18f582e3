import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, invalid, isoTimestamp, money, moneyColumn, rate, rateColumn, zDate, zId } from '@csp/service-kit';
import {
  checkHalfOpenPeriod,
  effectiveFields,
  insertAudit,
  requireReference,
  updateAudit,
  validOnHalfOpen,
  zNonNegativeMoney,
  zNonNegativeRate,
} from '../rule-support.js';

export const MENU_OVERRIDE = 'RULE_OVERRIDE';

export const overrideRuleSaveReq = z.object({
  fromGrade: zId,
  toGrade: zId,
  overridePct: zNonNegativeRate,
  calcType: z.string().trim().min(1).max(20).regex(/^[A-Z_]+$/, 'must be a code like RATE').default('RATE'),
  insuranceTypeCond: z.string().trim().max(30).nullable().optional(),
  capAmount: zNonNegativeMoney.nullable().optional(),
  ...effectiveFields,
});
type OverrideRuleSaveReq = z.output<typeof overrideRuleSaveReq>;

export const overrideRuleResp = z.object({
  overrideId: z.number().int(),
  fromGrade: z.number().int(),
  fromGradeName: z.string().nullable(),
  toGrade: z.number().int(),
  toGradeName: z.string().nullable(),
  overridePct: z.string(),
  calcType: z.string(),
  insuranceTypeCond: z.string().nullable(),
  capAmount: z.string().nullable(),
  effectiveFrom: z.string(),
  effectiveTo: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface OverrideRuleRow {
  override_id: number;
  from_grade: number;
  from_grade_name: string | null;
  to_grade: number;
  to_grade_name: string | null;
  override_pct: string;
  calc_type: string;
  insurance_type_cond: string | null;
  cap_amount: string | null;
  effective_from: string;
  effective_to: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: OverrideRuleSaveReq) => ({
  from_grade: b.fromGrade,
  to_grade: b.toGrade,
  override_pct: b.overridePct,
  calc_type: b.calcType,
  insurance_type_cond: b.insuranceTypeCond ?? null,
  cap_amount: b.capAmount ?? null,
  effective_from: b.effectiveFrom,
  effective_to: b.effectiveTo ?? null,
});

/** Override rules (RULE_OVERRIDE: READ/CREATE/UPDATE/DELETE); update needs `version` (B002). */
export const overrideRuleResource = defineResource({
  name: 'OverrideRule',
  basePath: '/api/rules/override',
  table: 'override_rule',
  idColumn: 'orl.override_id',
  menu: MENU_OVERRIDE,
  tags: ['Override rule'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('override_rule as orl')
      .leftJoin('grade as gf', 'gf.grade_id', 'orl.from_grade')
      .leftJoin('grade as gt', 'gt.grade_id', 'orl.to_grade'),
  columns: [
    'orl.override_id',
    'orl.from_grade',
    'gf.grade_name as from_grade_name',
    'orl.to_grade',
    'gt.grade_name as to_grade_name',
    'orl.override_pct',
    'orl.calc_type',
    'orl.insurance_type_cond',
    'orl.cap_amount',
    'orl.effective_from',
    'orl.effective_to',
    'orl.version',
    'orl.created_at',
    'orl.updated_at',
  ],
  respSchema: overrideRuleResp,
  toResp: (r: OverrideRuleRow) => ({
    overrideId: r.override_id,
    fromGrade: r.from_grade,
    fromGradeName: r.from_grade_name,
    toGrade: r.to_grade,
    toGradeName: r.to_grade_name,
    overridePct: rate(r.override_pct),
    calcType: r.calc_type,
    insuranceTypeCond: r.insurance_type_cond,
    capAmount: money(r.cap_amount),
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: overrideRuleSaveReq,
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b);
    if (b.fromGrade === b.toGrade) throw invalid('toGrade', 'must differ from fromGrade');
    await requireReference(ctx.trx, 'grade', 'grade_id', b.fromGrade, 'fromGrade', 'grade');
    await requireReference(ctx.trx, 'grade', 'grade_id', b.toGrade, 'toGrade', 'grade');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      /** Either side of the rule. */
      gradeId: zId.optional(),
      fromGrade: zId.optional(),
      toGrade: zId.optional(),
      insuranceType: z.string().trim().max(30).optional(),
      effectiveDate: zDate.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.gradeId !== undefined) q = q.where((eb: any) => eb.or([eb('orl.from_grade', '=', f.gradeId), eb('orl.to_grade', '=', f.gradeId)]));
      if (f.fromGrade !== undefined) q = q.where('orl.from_grade', '=', f.fromGrade);
      if (f.toGrade !== undefined) q = q.where('orl.to_grade', '=', f.toGrade);
      if (f.insuranceType) q = q.where('orl.insurance_type_cond', '=', f.insuranceType);
      if (f.effectiveDate) q = q.where(validOnHalfOpen('orl', f.effectiveDate));
      return q;
    },
  },
  sortable: {
    overrideId: 'orl.override_id',
    fromGrade: 'orl.from_grade',
    toGrade: 'orl.to_grade',
    overridePct: 'orl.override_pct',
    effectiveFrom: 'orl.effective_from',
  },
  defaultSort: 'orl.override_id',
  searchable: { fromGradeName: 'gf.grade_name', toGradeName: 'gt.grade_name', calcType: 'orl.calc_type' },
  dateColumn: 'orl.effective_from',
  versionColumn: 'orl.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Override ID', key: 'override_id' },
    { header: 'From grade', key: 'from_grade_name', width: 20 },
    { header: 'To grade', key: 'to_grade_name', width: 20 },
    rateColumn<OverrideRuleRow>('Override (%)', 'override_pct'),
    { header: 'Calc type', key: 'calc_type' },
    { header: 'Insurance type', key: 'insurance_type_cond' },
    moneyColumn<OverrideRuleRow>('Cap amount', 'cap_amount'),
    { header: 'Effective from', key: 'effective_from' },
    { header: 'Effective to', key: 'effective_to' },
    { header: 'Version', key: 'version' },
  ],
});
