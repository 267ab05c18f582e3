import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, isoTimestamp, money, zDate, zId, zMoney } from '@csp/service-kit';
import { insertAudit, requireRow, updateAudit } from '../people-db.js';

export const TRAINING_STATUSES = ['SCHEDULED', 'COMPLETED', 'ABSENT', 'CANCELLED'] as const;

/** Hours: number or string, at most 2 decimals, above 0 and below 1000 (numeric(5,2)). */
const zHours = zMoney.refine((v) => Number(v) > 0 && Number(v) < 1000, 'must be more than 0 and less than 1000');

export const agentTrainingSaveReq = z.object({
  agentId: zId,
  courseName: z.string().trim().min(1).max(200),
  trainingDate: zDate,
  hours: zHours,
  status: z.enum(TRAINING_STATUSES).default('SCHEDULED'),
  note: z.string().trim().max(1000).nullable().optional(),
});
type AgentTrainingSave = z.output<typeof agentTrainingSaveReq>;

export const agentTrainingResp = z.object({
  trainingId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string(),
  courseName: z.string(),
  trainingDate: z.string(),
  /** decimal string with 2 places */
  hours: z.string(),
  status: z.enum(TRAINING_STATUSES),
  note: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface AgentTrainingRow {
  training_id: number;
  agent_id: number;
  agent_name: string;
  course_name: string;
  training_date: string;
  hours: string;
  status: (typeof TRAINING_STATUSES)[number];
  note: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: AgentTrainingSave) => ({
  agent_id: b.agentId,
  course_name: b.courseName,
  training_date: b.trainingDate,
  hours: b.hours,
  status: b.status,
  note: b.note ?? null,
});

/** Trainings of agents (menu AGENT_TRAINING, hard delete). */
export const agentTrainingResource = defineResource({
  name: 'AgentTraining',
  basePath: '/api/agent-trainings',
  table: 'agent_training',
  idColumn: 't.training_id',
  menu: 'AGENT_TRAINING',
  tags: ['Agent training'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>).selectFrom('agent_training as t').innerJoin('agent as a', 'a.agent_id', 't.agent_id'),
  columns: [
    't.training_id',
    't.agent_id',
    'a.agent_name',
    't.course_name',
    't.training_date',
    't.hours',
    't.status',
    't.note',
    't.version',
    't.created_at',
    't.updated_at',
  ],
  respSchema: agentTrainingResp,
  toResp: (r: AgentTrainingRow) => ({
    trainingId: r.training_id,
    agentId: r.agent_id,
    agentName: r.agent_name,
    courseName: r.course_name,
    trainingDate: r.training_date,
    hours: money(r.hours),
    status: r.status,
    note: r.note,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: agentTrainingSaveReq,
  validate: async (b, ctx) => {
    await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: { status: z.enum(TRAINING_STATUSES).optional(), agentId: zId.optional() },
    apply: (qb, f) => (f.agentId !== undefined ? qb.where('t.agent_id', '=', f.agentId) : qb),
  },
  sortable: { trainingId: 't.training_id', trainingDate: 't.training_date', courseName: 't.course_name' },
  defaultSort: 't.training_id',
  searchable: { courseName: 't.course_name', agentName: 'a.agent_name' },
  dateColumn: 't.training_date',
  statusColumn: 't.status',
  versionColumn: 't.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
});
