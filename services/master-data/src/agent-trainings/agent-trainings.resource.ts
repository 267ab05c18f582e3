import { defineResource, f, requireRow } from '@csp/service-kit';
import { TRAINING_STATUSES } from '@csp/db';

/** Trainings of agents (menu AGENT_TRAINING, hard delete). */
export const agentTrainingResource = defineResource({
  name: 'AgentTraining',
  path: '/api/agent-trainings',
  table: 'agent_training',
  alias: 't',
  menu: 'AGENT_TRAINING',
  tags: ['Agent training'],
  baseQuery: (db) => db.selectFrom('agent_training as t').innerJoin('agent as a', 'a.agent_id', 't.agent_id'),
  fields: {
    trainingId: f.id(),
    agentId: f.ref().required().filter(),
    agentName: f.joined('a.agent_name', 'text').nullable(false).search(),
    courseName: f.text({ max: 200 }).required().sort().search(),
    trainingDate: f.date().required().sort(),
    // numeric(5,2): a decimal string with 2 places, above 0 and below 1000
    hours: f
      .money()
      .required()
      .refine((s) => s.refine((v) => Number(v) > 0 && Number(v) < 1000, 'must be more than 0 and less than 1000'))
      .describe('decimal string with 2 places'),
    status: f.enum(TRAINING_STATUSES).save({ default: 'SCHEDULED' }).filter(),
    note: f.text({ max: 1000 }).save(),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'trainingId',
  dateFilter: 'trainingDate',
  validate: async (b, ctx) => {
    await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
  },
});
