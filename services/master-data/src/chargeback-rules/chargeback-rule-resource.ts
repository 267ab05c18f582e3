import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, invalid, isoTimestamp, rate, rateColumn, zDate } from '@csp/service-kit';
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

export const MENU_CHARGEBACK = 'RULE_CHARGEBACK';

export const chargebackRuleSaveReq = z.object({
  companyCode: z.string().trim().min(1).max(20),
  insuranceType: z.string().trim().min(1).max(30).regex(/^[A-Z0-9_]+$/, 'must be an insurance type code'),
  lapseMonthFrom: z.number().int().min(0).max(1200),
  lapseMonthTo: z.number().int().min(0).max(1200).nullable().optional(),
  cbRate: zNonNegativeRate,
  includeOverride: z.boolean().default(false),
  installmentAllowed: z.boolean().default(false),
  maxInstallments: z.number().int().min(1).max(120).default(1),
  ...effectiveFields,
});
type ChargebackRuleSaveReq = z.output<typeof chargebackRuleSaveReq>;

export const chargebackRuleResp = z.object({
  cbRuleId: z.number().int(),
  companyCode: z.string(),
  companyName: z.string().nullable(),
  insuranceType: z.string(),
  insuranceTypeName: z.string().nullable(),
  lapseMonthFrom: z.number().int(),
  lapseMonthTo: z.number().int().nullable(),
  cbRate: z.string(),
  includeOverride: z.boolean(),
  installmentAllowed: z.boolean(),
  maxInstallments: z.number().int(),
  effectiveFrom: z.string(),
  effectiveTo: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface ChargebackRuleRow {
  cb_rule_id: number;
  company_code: string;
  company_name: string | null;
  insurance_type: string;
  insurance_type_name: string | null;
  lapse_month_from: number;
  lapse_month_to: number | null;
  cb_rate: string;
  include_override: boolean;
  installment_allowed: boolean;
  max_installments: number;
  effective_from: string;
  effective_to: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: ChargebackRuleSaveReq) => ({
  company_code: b.companyCode,
  insurance_type: b.insuranceType,
  lapse_month_from: b.lapseMonthFrom,
  lapse_month_to: b.lapseMonthTo ?? null,
  cb_rate: b.cbRate,
  include_override: b.includeOverride,
  installment_allowed: b.installmentAllowed,
  max_installments: b.maxInstallments,
  effective_from: b.effectiveFrom,
  effective_to: b.effectiveTo ?? null,
});

/** Chargeback rules (RULE_CHARGEBACK: READ/CREATE/UPDATE/DELETE); update needs `version` (B002). */
export const chargebackRuleResource = defineResource({
  name: 'ChargebackRule',
  basePath: '/api/rules/chargeback',
  table: 'chargeback_rule',
  idColumn: 'cbr.cb_rule_id',
  menu: MENU_CHARGEBACK,
  tags: ['Chargeback rule'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('chargeback_rule as cbr')
      .leftJoin('insurance_company as ic', 'ic.company_code', 'cbr.company_code')
      .select((eb) => codeName('INSURANCE_TYPE', eb.ref('cbr.insurance_type')).as('insurance_type_name')),
  columns: [
    'cbr.cb_rule_id',
    'cbr.company_code',
    'ic.company_name',
    'cbr.insurance_type',
    'cbr.lapse_month_from',
    'cbr.lapse_month_to',
    'cbr.cb_rate',
    'cbr.include_override',
    'cbr.installment_allowed',
    'cbr.max_installments',
    'cbr.effective_from',
    'cbr.effective_to',
    'cbr.version',
    'cbr.created_at',
    'cbr.updated_at',
  ],
  respSchema: chargebackRuleResp,
  toResp: (r: ChargebackRuleRow) => ({
    cbRuleId: r.cb_rule_id,
    companyCode: r.company_code,
    companyName: r.company_name,
    insuranceType: r.insurance_type,
    insuranceTypeName: r.insurance_type_name,
    lapseMonthFrom: r.lapse_month_from,
    lapseMonthTo: r.lapse_month_to,
    cbRate: rate(r.cb_rate),
    includeOverride: r.include_override,
    installmentAllowed: r.installment_allowed,
    maxInstallments: r.max_installments,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: chargebackRuleSaveReq,
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b);
    if (b.lapseMonthTo != null && b.lapseMonthTo < b.lapseMonthFrom) {
      throw invalid('lapseMonthTo', 'must not be less than lapseMonthFrom');
    }
    if (!b.installmentAllowed && b.maxInstallments > 1) {
      throw invalid('maxInstallments', 'must be 1 unless installmentAllowed');
    }
    await requireReference(ctx.trx, 'insurance_company', 'company_code', b.companyCode, 'companyCode', 'insurance company');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      companyCode: z.string().trim().max(20).optional(),
      insuranceType: z.string().trim().max(30).optional(),
      effectiveDate: zDate.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.companyCode) q = q.where('cbr.company_code', '=', f.companyCode);
      if (f.insuranceType) q = q.where('cbr.insurance_type', '=', f.insuranceType);
      if (f.effectiveDate) q = q.where(validOnHalfOpen('cbr', f.effectiveDate));
      return q;
    },
  },
  sortable: {
    cbRuleId: 'cbr.cb_rule_id',
    companyCode: 'cbr.company_code',
    insuranceType: 'cbr.insurance_type',
    lapseMonthFrom: 'cbr.lapse_month_from',
    cbRate: 'cbr.cb_rate',
    effectiveFrom: 'cbr.effective_from',
  },
  defaultSort: 'cbr.cb_rule_id',
  searchable: { companyCode: 'cbr.company_code', companyName: 'ic.company_name', insuranceType: 'cbr.insurance_type' },
  dateColumn: 'cbr.effective_from',
  versionColumn: 'cbr.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Rule ID', key: 'cb_rule_id' },
    { header: 'Company', key: 'company_code' },
    { header: 'Company name', key: 'company_name', width: 25 },
    { header: 'Insurance type', key: 'insurance_type' },
    { header: 'Lapse month from', key: 'lapse_month_from' },
    { header: 'Lapse month to', key: 'lapse_month_to' },
    rateColumn<ChargebackRuleRow>('Chargeback (%)', 'cb_rate'),
    { header: 'Include override', key: 'include_override', value: (r: ChargebackRuleRow) => (r.include_override ? 'Y' : 'N') },
    { header: 'Installments', key: 'installment_allowed', value: (r: ChargebackRuleRow) => (r.installment_allowed ? 'Y' : 'N') },
    { header: 'Max installments', key: 'max_installments' },
    { header: 'Effective from', key: 'effective_from' },
    { header: 'Effective to', key: 'effective_to' },
    { header: 'Version', key: 'version' },
  ],
});
