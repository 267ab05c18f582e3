import { z } from 'zod';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { defineResource, invalid, isoTimestamp, money, zDate, zId, zMoney } from '@csp/service-kit';
import { insertAudit, requireRow, updateAudit } from '../people-db.js';

export const CONTRACT_STATUSES = ['ACTIVE', 'LAPSE', 'REVIVE', 'TERMINATE'] as const;
export const PAY_CYCLES = ['MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SINGLE'] as const;

export const zNonNegativeMoney = zMoney.refine((v) => !v.startsWith('-'), 'must not be negative');

export const contractSaveReq = z.object({
  agentId: zId,
  productId: zId,
  policyNo: z.string().trim().min(1).max(50),
  contractorName: z.string().trim().max(100).nullable().optional(),
  insuredName: z.string().trim().max(100).nullable().optional(),
  premium: zNonNegativeMoney,
  payCycle: z.enum(PAY_CYCLES).default('MONTHLY'),
  /** years */
  payPeriod: z.number().int().min(0).max(100).nullable().optional(),
  /** years */
  coveragePeriod: z.number().int().min(0).max(120).nullable().optional(),
  status: z.enum(CONTRACT_STATUSES).default('ACTIVE'),
  contractDate: zDate.nullable().optional(),
  effectiveDate: zDate.nullable().optional(),
  lapseDate: zDate.nullable().optional(),
  revivalDate: zDate.nullable().optional(),
});
type ContractSave = z.output<typeof contractSaveReq>;

export const contractResp = z.object({
  contractId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string(),
  orgId: z.number().int(),
  orgName: z.string(),
  productId: z.number().int(),
  productCode: z.string(),
  productName: z.string(),
  companyId: z.number().int(),
  companyName: z.string(),
  policyNo: z.string(),
  contractorName: z.string().nullable(),
  insuredName: z.string().nullable(),
  premium: z.string(),
  payCycle: z.enum(PAY_CYCLES),
  payCycleName: z.string().nullable(),
  payPeriod: z.number().int().nullable(),
  coveragePeriod: z.number().int().nullable(),
  status: z.enum(CONTRACT_STATUSES),
  statusName: z.string().nullable(),
  contractDate: z.string().nullable(),
  effectiveDate: z.string().nullable(),
  lapseDate: z.string().nullable(),
  revivalDate: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export interface ContractRow {
  contract_id: number;
  agent_id: number;
  agent_name: string;
  org_id: number;
  org_name: string;
  product_id: number;
  product_code: string;
  product_name: string;
  company_id: number;
  company_name: string;
  policy_no: string;
  contractor_name: string | null;
  insured_name: string | null;
  premium: string;
  pay_cycle: (typeof PAY_CYCLES)[number];
  pay_cycle_name: string | null;
  pay_period: number | null;
  coverage_period: number | null;
  status: (typeof CONTRACT_STATUSES)[number];
  status_name: string | null;
  contract_date: string | null;
  effective_date: string | null;
  lapse_date: string | null;
  revival_date: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: ContractSave) => ({
  agent_id: b.agentId,
  product_id: b.productId,
  policy_no: b.policyNo,
  contractor_name: b.contractorName ?? null,
  insured_name: b.insuredName ?? null,
  premium: b.premium,
  pay_cycle: b.payCycle,
  pay_period: b.payPeriod ?? null,
  coverage_period: b.coveragePeriod ?? null,
  status: b.status,
  contract_date: b.contractDate ?? null,
  effective_date: b.effectiveDate ?? null,
  lapse_date: b.lapseDate ?? null,
  revival_date: b.revivalDate ?? null,
});

export const contractSortable: Record<string, string> = {
  contractId: 'ct.contract_id',
  policyNo: 'ct.policy_no',
  contractDate: 'ct.contract_date',
  premium: 'ct.premium',
  agentName: 'a.agent_name',
  status: 'ct.status',
};

const SEARCH_COLUMNS = {
  policyNo: 'ct.policy_no',
  contractorName: 'ct.contractor_name',
  insuredName: 'ct.insured_name',
  agentName: 'a.agent_name',
} as const;

/**
 * ContractSearchParam: the common parameters (searchType policyNo | contractorName | insuredName |
 * agentName, all four without searchType; startDate/endDate on contract_date; status) plus agentId,
 * productId, companyId, policyNo (exact) and payCycle. One definition for the list and the export.
 */
export const contractFilterShape = {
  searchType: z.enum(['policyNo', 'contractorName', 'insuredName', 'agentName']).optional(),
  searchKeyword: z.string().trim().max(200).optional(),
  startDate: zDate.optional(),
  endDate: zDate.optional(),
  status: z.enum(CONTRACT_STATUSES).optional(),
  agentId: zId.optional(),
  productId: zId.optional(),
  companyId: zId.optional(),
  policyNo: z.string().trim().max(50).optional(),
  payCycle: z.enum(PAY_CYCLES).optional(),
};
export type ContractFilters = z.output<z.ZodObject<typeof contractFilterShape>>;

/** Works on any select over `contractBaseQuery` (aliases ct, a, p). */
export function applyContractFilters<Q extends SelectQueryBuilder<any, any, any>>(qb: Q, f: ContractFilters): Q {
  let q = qb as SelectQueryBuilder<any, any, any>;
  if (f.searchKeyword) {
    const pattern = `%${f.searchKeyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const columns = f.searchType ? [SEARCH_COLUMNS[f.searchType]] : Object.values(SEARCH_COLUMNS);
    q = q.where((eb) => eb.or(columns.map((c) => eb(c, 'ilike', pattern))));
  }
  if (f.startDate) q = q.where('ct.contract_date', '>=', f.startDate);
  if (f.endDate) q = q.where('ct.contract_date', '<=', f.endDate);
  if (f.status) q = q.where('ct.status', '=', f.status);
  if (f.agentId !== undefined) q = q.where('ct.agent_id', '=', f.agentId);
  if (f.productId !== undefined) q = q.where('ct.product_id', '=', f.productId);
  if (f.companyId !== undefined) q = q.where('p.company_id', '=', f.companyId);
  if (f.policyNo) q = q.where('ct.policy_no', '=', f.policyNo);
  if (f.payCycle) q = q.where('ct.pay_cycle', '=', f.payCycle);
  return q as Q;
}

/** Joins shared by list, detail and export. */
export function contractBaseQuery(db: unknown) {
  return (db as Kysely<any>)
    .selectFrom('contract as ct')
    .innerJoin('agent as a', 'a.agent_id', 'ct.agent_id')
    .innerJoin('organization as o', 'o.org_id', 'a.org_id')
    .innerJoin('product as p', 'p.product_id', 'ct.product_id')
    .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
    .leftJoin('common_code as pc', (j) => j.onRef('pc.code', '=', 'ct.pay_cycle').on('pc.group_code', '=', 'PAY_CYCLE'))
    .leftJoin('common_code as cs', (j) => j.onRef('cs.code', '=', 'ct.status').on('cs.group_code', '=', 'CONTRACT_STATUS'));
}

/**
 * Contracts (menu CONTRACT_LIST: READ/CREATE/UPDATE, no DELETE). policy_no is unique (B009);
 * updates carry `version` (stale -> B002). agentId is the recruiting agent; successions do not
 * change it. The /excel export is contract-export.ts (a narrower select for 1,000,000 rows).
 */
export const contractResource = defineResource({
  name: 'Contract',
  basePath: '/api/contracts',
  table: 'contract',
  idColumn: 'ct.contract_id',
  menu: 'CONTRACT_LIST',
  tags: ['Contract'],
  baseQuery: contractBaseQuery,
  columns: [
    'ct.contract_id',
    'ct.agent_id',
    'a.agent_name',
    'a.org_id',
    'o.org_name',
    'ct.product_id',
    'p.product_code',
    'p.product_name',
    'p.company_id',
    'ic.company_name',
    'ct.policy_no',
    'ct.contractor_name',
    'ct.insured_name',
    'ct.premium',
    'ct.pay_cycle',
    'pc.code_name as pay_cycle_name',
    'ct.pay_period',
    'ct.coverage_period',
    'ct.status',
    'cs.code_name as status_name',
    'ct.contract_date',
    'ct.effective_date',
    'ct.lapse_date',
    'ct.revival_date',
    'ct.version',
    'ct.created_at',
    'ct.updated_at',
  ],
  respSchema: contractResp,
  toResp: (r: ContractRow) => ({
    contractId: r.contract_id,
    agentId: r.agent_id,
    agentName: r.agent_name,
    orgId: r.org_id,
    orgName: r.org_name,
    productId: r.product_id,
    productCode: r.product_code,
    productName: r.product_name,
    companyId: r.company_id,
    companyName: r.company_name,
    policyNo: r.policy_no,
    contractorName: r.contractor_name,
    insuredName: r.insured_name,
    premium: money(r.premium),
    payCycle: r.pay_cycle,
    payCycleName: r.pay_cycle_name,
    payPeriod: r.pay_period,
    coveragePeriod: r.coverage_period,
    status: r.status,
    statusName: r.status_name,
    contractDate: r.contract_date,
    effectiveDate: r.effective_date,
    lapseDate: r.lapse_date,
    revivalDate: r.revival_date,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: contractSaveReq,
  validate: async (b, ctx, existing) => {
    if (b.status === 'LAPSE' && !b.lapseDate) throw invalid('lapseDate', 'is required when status is LAPSE');
    if (b.status === 'REVIVE' && !b.revivalDate) throw invalid('revivalDate', 'is required when status is REVIVE');
    const agent = await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
    const product = await requireRow(ctx.trx, 'product', 'product_id', b.productId, 'productId', 'product');
    // new business only for working agents and products on sale; existing contracts stay editable
    if (!existing || Number(existing.agent_id) !== b.agentId) {
      if (agent.status === 'LEAVE') throw invalid('agentId', 'the agent has retired');
    }
    if (!existing || Number(existing.product_id) !== b.productId) {
      if (product.is_active === false) throw invalid('productId', 'the product is inactive');
    }
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: { shape: contractFilterShape, apply: applyContractFilters },
  sortable: contractSortable,
  defaultSort: 'ct.contract_id',
  versionColumn: 'ct.version',
  delete: false,
  exportPerm: false,
});
