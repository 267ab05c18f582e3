import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, invalid, isoTimestamp, zDate, zId } from '@csp/service-kit';
import { insertAudit, requireRow, updateAudit } from '../people-db.js';
import { zBoolQuery } from '../orgs/org-schemas.js';

export const COMPLAINT_TYPES = ['MIS_SELLING', 'INCOMPLETE_SALE', 'SERVICE', 'OTHER'] as const;
export const COMPLAINT_STATUSES = ['RECEIVED', 'IN_PROGRESS', 'RESOLVED', 'REJECTED'] as const;

export const complaintSaveReq = z.object({
  contractId: zId,
  /** the agent responsible for the sale (usually the contract's agent) */
  agentId: zId,
  complaintDate: zDate,
  complaintType: z.enum(COMPLAINT_TYPES),
  content: z.string().trim().min(1).max(4000),
  status: z.enum(COMPLAINT_STATUSES).default('RECEIVED'),
  resolution: z.string().trim().max(4000).nullable().optional(),
  resolvedDate: zDate.nullable().optional(),
  chargebackYn: z.boolean().default(false),
});
type ComplaintSave = z.output<typeof complaintSaveReq>;

export const complaintResp = z.object({
  complaintId: z.number().int(),
  contractId: z.number().int(),
  policyNo: z.string(),
  agentId: z.number().int(),
  agentName: z.string(),
  complaintDate: z.string(),
  complaintType: z.enum(COMPLAINT_TYPES),
  content: z.string(),
  status: z.enum(COMPLAINT_STATUSES),
  resolution: z.string().nullable(),
  resolvedDate: z.string().nullable(),
  chargebackYn: z.boolean(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface ComplaintRow {
  complaint_id: number;
  contract_id: number;
  policy_no: string;
  agent_id: number;
  agent_name: string;
  complaint_date: string;
  complaint_type: (typeof COMPLAINT_TYPES)[number];
  content: string;
  status: (typeof COMPLAINT_STATUSES)[number];
  resolution: string | null;
  resolved_date: string | null;
  chargeback_yn: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: ComplaintSave) => ({
  contract_id: b.contractId,
  agent_id: b.agentId,
  complaint_date: b.complaintDate,
  complaint_type: b.complaintType,
  content: b.content,
  status: b.status,
  resolution: b.resolution ?? null,
  resolved_date: b.resolvedDate ?? null,
  chargeback_yn: b.chargebackYn,
});

/** Customer complaints on contracts (menu COMPLAINT, hard delete). */
export const complaintResource = defineResource({
  name: 'ContractComplaint',
  basePath: '/api/contract-complaints',
  table: 'contract_complaint',
  idColumn: 'cp.complaint_id',
  menu: 'COMPLAINT',
  tags: ['Contract complaint'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('contract_complaint as cp')
      .innerJoin('contract as ct', 'ct.contract_id', 'cp.contract_id')
      .innerJoin('agent as a', 'a.agent_id', 'cp.agent_id'),
  columns: [
    'cp.complaint_id',
    'cp.contract_id',
    'ct.policy_no',
    'cp.agent_id',
    'a.agent_name',
    'cp.complaint_date',
    'cp.complaint_type',
    'cp.content',
    'cp.status',
    'cp.resolution',
    'cp.resolved_date',
    'cp.chargeback_yn',
    'cp.version',
    'cp.created_at',
    'cp.updated_at',
  ],
  respSchema: complaintResp,
  toResp: (r: ComplaintRow) => ({
    complaintId: r.complaint_id,
    contractId: r.contract_id,
    policyNo: r.policy_no,
    agentId: r.agent_id,
    agentName: r.agent_name,
    complaintDate: r.complaint_date,
    complaintType: r.complaint_type,
    content: r.content,
    status: r.status,
    resolution: r.resolution,
    resolvedDate: r.resolved_date,
    chargebackYn: r.chargeback_yn,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: complaintSaveReq,
  validate: async (b, ctx) => {
    if (b.resolvedDate && b.resolvedDate < b.complaintDate) throw invalid('resolvedDate', 'must not be before complaintDate');
    await requireRow(ctx.trx, 'contract', 'contract_id', b.contractId, 'contractId', 'contract');
    await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      status: z.enum(COMPLAINT_STATUSES).optional(),
      contractId: zId.optional(),
      agentId: zId.optional(),
      complaintType: z.enum(COMPLAINT_TYPES).optional(),
      chargebackYn: zBoolQuery.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.contractId !== undefined) q = q.where('cp.contract_id', '=', f.contractId);
      if (f.agentId !== undefined) q = q.where('cp.agent_id', '=', f.agentId);
      if (f.complaintType) q = q.where('cp.complaint_type', '=', f.complaintType);
      if (f.chargebackYn !== undefined) q = q.where('cp.chargeback_yn', '=', f.chargebackYn);
      return q;
    },
  },
  sortable: { complaintId: 'cp.complaint_id', complaintDate: 'cp.complaint_date', policyNo: 'ct.policy_no' },
  defaultSort: 'cp.complaint_id',
  searchable: { policyNo: 'ct.policy_no', agentName: 'a.agent_name', content: 'cp.content' },
  dateColumn: 'cp.complaint_date',
  statusColumn: 'cp.status',
  versionColumn: 'cp.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
});
