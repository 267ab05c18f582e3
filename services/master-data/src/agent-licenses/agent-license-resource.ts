import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, invalid, isoTimestamp, zDate, zId } from '@csp/service-kit';
import { insertAudit, requireRow, updateAudit } from '../people-db.js';

export const LICENSE_TYPES = ['LIFE', 'NON_LIFE', 'THIRD_SECTOR', 'VARIABLE'] as const;
export const LICENSE_STATUSES = ['ACTIVE', 'EXPIRED', 'SUSPENDED', 'REVOKED'] as const;

export const agentLicenseSaveReq = z.object({
  agentId: zId,
  licenseType: z.enum(LICENSE_TYPES),
  licenseNo: z.string().trim().min(1).max(30),
  issueDate: zDate,
  expiryDate: zDate.nullable().optional(),
  status: z.enum(LICENSE_STATUSES).default('ACTIVE'),
  note: z.string().trim().max(1000).nullable().optional(),
});
type AgentLicenseSave = z.output<typeof agentLicenseSaveReq>;

export const agentLicenseResp = z.object({
  licenseId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string(),
  licenseType: z.enum(LICENSE_TYPES),
  licenseNo: z.string(),
  issueDate: z.string(),
  expiryDate: z.string().nullable(),
  status: z.enum(LICENSE_STATUSES),
  note: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface AgentLicenseRow {
  license_id: number;
  agent_id: number;
  agent_name: string;
  license_type: (typeof LICENSE_TYPES)[number];
  license_no: string;
  issue_date: string;
  expiry_date: string | null;
  status: (typeof LICENSE_STATUSES)[number];
  note: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: AgentLicenseSave) => ({
  agent_id: b.agentId,
  license_type: b.licenseType,
  license_no: b.licenseNo,
  issue_date: b.issueDate,
  expiry_date: b.expiryDate ?? null,
  status: b.status,
  note: b.note ?? null,
});

/**
 * Licenses of agents (menu AGENT_LICENSE, hard delete). (licenseType, licenseNo) is unique (B009).
 * expiryBefore lists licenses expiring on or before a day (renewal follow-up).
 */
export const agentLicenseResource = defineResource({
  name: 'AgentLicense',
  basePath: '/api/agent-licenses',
  table: 'agent_license',
  idColumn: 'l.license_id',
  menu: 'AGENT_LICENSE',
  tags: ['Agent license'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>).selectFrom('agent_license as l').innerJoin('agent as a', 'a.agent_id', 'l.agent_id'),
  columns: [
    'l.license_id',
    'l.agent_id',
    'a.agent_name',
    'l.license_type',
    'l.license_no',
    'l.issue_date',
    'l.expiry_date',
    'l.status',
    'l.note',
    'l.version',
    'l.created_at',
    'l.updated_at',
  ],
  respSchema: agentLicenseResp,
  toResp: (r: AgentLicenseRow) => ({
    licenseId: r.license_id,
    agentId: r.agent_id,
    agentName: r.agent_name,
    licenseType: r.license_type,
    licenseNo: r.license_no,
    issueDate: r.issue_date,
    expiryDate: r.expiry_date,
    status: r.status,
    note: r.note,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: agentLicenseSaveReq,
  validate: async (b, ctx) => {
    if (b.expiryDate && b.expiryDate < b.issueDate) throw invalid('expiryDate', 'must not be before issueDate');
    await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      status: z.enum(LICENSE_STATUSES).optional(),
      agentId: zId.optional(),
      licenseType: z.enum(LICENSE_TYPES).optional(),
      expiryBefore: zDate.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.agentId !== undefined) q = q.where('l.agent_id', '=', f.agentId);
      if (f.licenseType) q = q.where('l.license_type', '=', f.licenseType);
      if (f.expiryBefore) q = q.where('l.expiry_date', '<=', f.expiryBefore);
      return q;
    },
  },
  sortable: { licenseId: 'l.license_id', issueDate: 'l.issue_date', expiryDate: 'l.expiry_date', licenseNo: 'l.license_no' },
  defaultSort: 'l.license_id',
  searchable: { licenseNo: 'l.license_no', agentName: 'a.agent_name' },
  dateColumn: 'l.issue_date',
  statusColumn: 'l.status',
  versionColumn: 'l.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
});
