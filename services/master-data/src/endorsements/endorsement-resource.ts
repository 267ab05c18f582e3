import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, isoTimestamp, money, zDate, zId, zMoney } from '@csp/service-kit';
import { insertAudit, requireRow, updateAudit } from '../people-db.js';

export const ENDORSE_TYPES = [
  'PREMIUM_CHANGE',
  'PAY_CYCLE_CHANGE',
  'COVERAGE_CHANGE',
  'CONTRACTOR_CHANGE',
  'BENEFICIARY_CHANGE',
  'OTHER',
] as const;
export const ENDORSE_STATUSES = ['REQUESTED', 'APPLIED', 'REJECTED', 'CANCELLED'] as const;

export const endorsementSaveReq = z.object({
  contractId: zId,
  endorseType: z.enum(ENDORSE_TYPES),
  endorseDate: zDate,
  beforeValue: z.string().trim().max(1000).nullable().optional(),
  afterValue: z.string().trim().max(1000).nullable().optional(),
  /** signed: a premium decrease is negative */
  premiumChange: zMoney.default('0.00'),
  status: z.enum(ENDORSE_STATUSES).default('REQUESTED'),
  note: z.string().trim().max(1000).nullable().optional(),
});
type EndorsementSave = z.output<typeof endorsementSaveReq>;

export const endorsementResp = z.object({
  endorsementId: z.number().int(),
  contractId: z.number().int(),
  policyNo: z.string(),
  agentId: z.number().int(),
  agentName: z.string(),
  endorseType: z.enum(ENDORSE_TYPES),
  endorseDate: z.string(),
  beforeValue: z.string().nullable(),
  afterValue: z.string().nullable(),
  premiumChange: z.string(),
  status: z.enum(ENDORSE_STATUSES),
  note: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface EndorsementRow {
  endorsement_id: number;
  contract_id: number;
  policy_no: string;
  agent_id: number;
  agent_name: string;
  endorse_type: (typeof ENDORSE_TYPES)[number];
  endorse_date: string;
  before_value: string | null;
  after_value: string | null;
  premium_change: string;
  status: (typeof ENDORSE_STATUSES)[number];
  note: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: EndorsementSave) => ({
  contract_id: b.contractId,
  endorse_type: b.endorseType,
  endorse_date: b.endorseDate,
  before_value: b.beforeValue ?? null,
  after_value: b.afterValue ?? null,
  premium_change: b.premiumChange,
  status: b.status,
  note: b.note ?? null,
});

/**
 * Contract endorsements (menu ENDORSE, hard delete). Recording an endorsement does not change
 * the contract itself; contract changes go through PUT /api/contracts/{id}.
 */
export const endorsementResource = defineResource({
  name: 'ContractEndorsement',
  basePath: '/api/contract-endorsements',
  table: 'contract_endorsement',
  idColumn: 'e.endorsement_id',
  menu: 'ENDORSE',
  tags: ['Contract endorsement'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('contract_endorsement as e')
      .innerJoin('contract as ct', 'ct.contract_id', 'e.contract_id')
      .innerJoin('agent as a', 'a.agent_id', 'ct.agent_id'),
  columns: [
    'e.endorsement_id',
    'e.contract_id',
    'ct.policy_no',
    'ct.agent_id',
    'a.agent_name',
    'e.endorse_type',
    'e.endorse_date',
    'e.before_value',
    'e.after_value',
    'e.premium_change',
    'e.status',
    'e.note',
    'e.version',
    'e.created_at',
    'e.updated_at',
  ],
  respSchema: endorsementResp,
  toResp: (r: EndorsementRow) => ({
    endorsementId: r.endorsement_id,
    contractId: r.contract_id,
    policyNo: r.policy_no,
    agentId: r.agent_id,
    agentName: r.agent_name,
    endorseType: r.endorse_type,
    endorseDate: r.endorse_date,
    beforeValue: r.before_value,
    afterValue: r.after_value,
    premiumChange: money(r.premium_change),
    status: r.status,
    note: r.note,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: endorsementSaveReq,
  validate: async (b, ctx) => {
    await requireRow(ctx.trx, 'contract', 'contract_id', b.contractId, 'contractId', 'contract');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      status: z.enum(ENDORSE_STATUSES).optional(),
      contractId: zId.optional(),
      agentId: zId.optional(),
      endorseType: z.enum(ENDORSE_TYPES).optional(),
      policyNo: z.string().trim().max(50).optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.contractId !== undefined) q = q.where('e.contract_id', '=', f.contractId);
      if (f.agentId !== undefined) q = q.where('ct.agent_id', '=', f.agentId);
      if (f.endorseType) q = q.where('e.endorse_type', '=', f.endorseType);
      if (f.policyNo) q = q.where('ct.policy_no', '=', f.policyNo);
      return q;
    },
  },
  sortable: { endorsementId: 'e.endorsement_id', endorseDate: 'e.endorse_date', policyNo: 'ct.policy_no' },
  defaultSort: 'e.endorsement_id',
  searchable: { policyNo: 'ct.policy_no', agentName: 'a.agent_name' },
  dateColumn: 'e.endorse_date',
  statusColumn: 'e.status',
  versionColumn: 'e.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
});
