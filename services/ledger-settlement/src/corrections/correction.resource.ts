import { CORRECTION_STATUSES, CORRECTION_TYPES, SETTLE_ROW_TABLES } from '@csp/db';
import { correctionAmount } from '@csp/domain';
import { AppError, defineResource, f, invalid } from '@csp/service-kit';
import type { Executor } from '../period-closes/month-guard.js';
import { sourceRowOf } from './source-row.js';

export const MENU_CORRECTION = 'SETTLE_CORRECTION';

/**
 * Settlement corrections (SETTLE_CORRECTION): create (PENDING) and change while PENDING through the field
 * table; approve/reject/cancel and the recalculation are workflow actions (correction.routes.ts). An approved
 * correction is booked into `targetMonth` and counted there as correction_total.
 */
export const correctionResource = defineResource({
  name: 'SettleCorrection',
  path: '/api/settle-corrections',
  table: 'settle_correction',
  alias: 'sc',
  menu: MENU_CORRECTION,
  tags: ['Settlement corrections'],
  baseQuery: (db) => db.selectFrom('settle_correction as sc').leftJoin('agent as a', 'a.agent_id', 'sc.agent_id'),
  fields: {
    correctionId: f.id().label('Correction ID'),
    agentId: f.ref().required().createOnly().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().label('Agent').export({ width: 18 }),
    originalMonth: f.month().required().createOnly().nullable(false).filter('range').sort().label('Original month'),
    amount: f.money().required().nullable(false).sort().label('Amount'),
    reason: f.text({ min: 1, max: 1000 }).required().nullable(false).search().label('Reason').export({ width: 30 }),
    correctionType: f.enum(CORRECTION_TYPES).nullable(false).filter().label('Type'),
    sourceTable: f.enum(SETTLE_ROW_TABLES).save().createOnly().label('Source table'),
    sourceId: f.ref().save().createOnly().label('Source row'),
    disputeId: f.ref().filter().label('Dispute ID'),
    status: f.enum(CORRECTION_STATUSES).nullable(false).filter().sort().label('Status'),
    targetMonth: f.month().filter('range').sort().label('Booked into'),
    decidedBy: f.ref().label('Decided by'),
    decidedAt: f.timestamp().label('Decided at').export({ width: 24 }),
    decisionNote: f.text().label('Decision note').export({ width: 30 }),
    calcBasis: f.json().detailOnly().export(false).describe('RECALC: the re-priced ledger rows'),
    version: f.version().export(false),
    createdBy: f.createdBy().label('요청자', 'Requested by'),
    createdAt: f.createdAt().sort().label('요청 일시', 'Requested at'),
    updatedBy: f.updatedBy().hidden(),
    updatedAt: f.updatedAt().export(false),
  },
  statusField: 'status',
  dateFilter: 'createdAt',
  defaultSort: '-correctionId',
  agentScope: 'agentId',
  partialUpdate: true,
  delete: false,
  validate: async (body, ctx, existing) => {
    const trx = ctx.trx as Executor;
    if (existing && existing.status !== 'PENDING') {
      throw new AppError('ALREADY_CONFIRMED', `Correction ${existing.correction_id} is ${existing.status}; only PENDING ones change`);
    }
    if (body.amount !== undefined) correctionAmount(body.amount as string);
    if (!existing) {
      const agent = await trx.selectFrom('agent').select('agent_id').where('agent_id', '=', body.agentId as number).executeTakeFirst();
      if (!agent) throw invalid('agentId', 'agent does not exist');
      if ((body.sourceTable == null) !== (body.sourceId == null)) {
        throw invalid(body.sourceTable == null ? 'sourceTable' : 'sourceId', 'sourceTable and sourceId go together');
      }
      if (body.sourceTable != null) {
        const source = await sourceRowOf(trx, body.sourceTable as string, body.sourceId as number);
        if (!source) throw invalid('sourceId', `${body.sourceTable as string} row ${body.sourceId as number} does not exist`);
        if (source.agentId !== body.agentId || source.settleMonth !== body.originalMonth) {
          throw invalid('sourceId', "is not a row of the correction's agent and original month");
        }
      }
    }
  },
});
