import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, invalid, isoTimestamp, zDate, zId } from '@csp/service-kit';
import { insertAudit, requireRow, updateAudit } from '../people-db.js';

export const AGENT_CONTRACT_TYPES = ['EXCLUSIVE', 'NON_EXCLUSIVE', 'PART_TIME'] as const;
export const AGENT_CONTRACT_STATUSES = ['ACTIVE', 'EXPIRED', 'TERMINATED'] as const;

export const agentContractSaveReq = z.object({
  agentId: zId,
  contractType: z.enum(AGENT_CONTRACT_TYPES),
  startDate: zDate,
  endDate: zDate.nullable().optional(),
  status: z.enum(AGENT_CONTRACT_STATUSES).default('ACTIVE'),
  commissionSchedule: z.string().trim().max(50).nullable().optional(),
  note: z.string().trim().max(1000).nullable().optional(),
});
type AgentContractSave = z.output<typeof agentContractSaveReq>;

export const agentContractResp = z.object({
  agentContractId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string(),
  orgName: z.string(),
  contractType: z.enum(AGENT_CONTRACT_TYPES),
  startDate: z.string(),
  endDate: z.string().nullable(),
  status: z.enum(AGENT_CONTRACT_STATUSES),
  commissionSchedule: z.string().nullable(),
  note: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface AgentContractRow {
  agent_contract_id: number;
  agent_id: number;
  agent_name: string;
  org_name: string;
  contract_type: (typeof AGENT_CONTRACT_TYPES)[number];
  start_date: string;
  end_date: string | null;
  status: (typeof AGENT_CONTRACT_STATUSES)[number];
  commission_schedule: string | null;
  note: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: AgentContractSave) => ({
  agent_id: b.agentId,
  contract_type: b.contractType,
  start_date: b.startDate,
  end_date: b.endDate ?? null,
  status: b.status,
  commission_schedule: b.commissionSchedule ?? null,
  note: b.note ?? null,
});

/** Appointment contracts of agents with the agency (menu AGENT_CONTRACT, hard delete). */
export const agentContractResource = defineResource({
  name: 'AgentContract',
  basePath: '/api/agent-contracts',
  table: 'agent_contract',
  idColumn: 'ac.agent_contract_id',
  menu: 'AGENT_CONTRACT',
  tags: ['Agent contract'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('agent_contract as ac')
      .innerJoin('agent as a', 'a.agent_id', 'ac.agent_id')
      .innerJoin('organization as o', 'o.org_id', 'a.org_id'),
  columns: [
    'ac.agent_contract_id',
    'ac.agent_id',
    'a.agent_name',
    'o.org_name',
    'ac.contract_type',
    'ac.start_date',
    'ac.end_date',
    'ac.status',
    'ac.commission_schedule',
    'ac.note',
    'ac.version',
    'ac.created_at',
    'ac.updated_at',
  ],
  respSchema: agentContractResp,
  toResp: (r: AgentContractRow) => ({
    agentContractId: r.agent_contract_id,
    agentId: r.agent_id,
    agentName: r.agent_name,
    orgName: r.org_name,
    contractType: r.contract_type,
    startDate: r.start_date,
    endDate: r.end_date,
    status: r.status,
    commissionSchedule: r.commission_schedule,
    note: r.note,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: agentContractSaveReq,
  validate: async (b, ctx) => {
    if (b.endDate && b.endDate < b.startDate) throw invalid('endDate', 'must not be before startDate');
    await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      status: z.enum(AGENT_CONTRACT_STATUSES).optional(),
      agentId: zId.optional(),
      contractType: z.enum(AGENT_CONTRACT_TYPES).optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.agentId !== undefined) q = q.where('ac.agent_id', '=', f.agentId);
      if (f.contractType) q = q.where('ac.contract_type', '=', f.contractType);
      return q;
    },
  },
  sortable: { agentContractId: 'ac.agent_contract_id', startDate: 'ac.start_date', endDate: 'ac.end_date', agentName: 'a.agent_name' },
  defaultSort: 'ac.agent_contract_id',
  searchable: { agentName: 'a.agent_name', commissionSchedule: 'ac.commission_schedule' },
  dateColumn: 'ac.start_date',
  statusColumn: 'ac.status',
  versionColumn: 'ac.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
});
