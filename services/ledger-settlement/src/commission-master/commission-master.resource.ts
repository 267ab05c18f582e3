import { sql } from 'kysely';
import { COMMISSION_TYPE_CODES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import type { Executor } from '../period-closes/month-guard.js';
import { assertAdjustable } from './commission-master.service.js';

export const MENU_COMM_MASTER = 'COMM_MASTER';

/**
 * commission_master (COMM_MASTER): one row per agent, month and commission type, written by the aggregate step
 * (computed_amount and its source, never edited by hand). PUT is an adjustment with a required reason, counted in
 * the month's other_total at the next aggregate; B001 when the month is closed or the agent's settlement locked.
 * DELETE clears the adjustment (commission-master.routes.ts); the computed row stays.
 */
export const commissionMasterResource = defineResource({
  name: 'CommissionMaster',
  path: '/api/commission-master',
  table: 'commission_master',
  alias: 'cm',
  menu: MENU_COMM_MASTER,
  tags: ['Commission master'],
  create: false,
  delete: false,
  baseQuery: (db) =>
    db
      .selectFrom('commission_master as cm')
      .leftJoin('agent as a', 'a.agent_id', 'cm.agent_id')
      .leftJoin('commission_type as t', 't.type_code', 'cm.commission_type'),
  fields: {
    cmId: f.id().label('ID'),
    settleMonth: f.month().nullable(false).filter().sort().label('Settle month'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().label('Agent').export({ width: 18 }),
    commissionType: f.enum(COMMISSION_TYPE_CODES).nullable(false).filter('in').sort().label('Type'),
    typeName: f.joined('t.type_name', 'text').label('Type name').export({ width: 24 }),
    computedAmount: f.money().nullable(false).sort().label('Computed'),
    adjustmentAmount: f.money().required().nullable(false).sort().label('Adjustment').describe('signed; replaces the previous adjustment'),
    adjustReason: f.text({ max: 1000 }).required().nullable().label('Adjust reason').export({ width: 30 }),
    totalAmount: f.computed(sql`cm.computed_amount + cm.adjustment_amount`, 'money').nullable(false).label('Total'),
    sourceTable: f.text().nullable(false).label('Source'),
    sourceCount: f.int().nullable(false).label('Source rows'),
    runId: f.ref().export(false),
    version: f.version().export(false),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().label('Updated at').export({ width: 24 }),
    updatedBy: f.updatedBy().label('Updated by'),
  },
  defaultSort: 'cmId',
  agentScope: 'agentId',
  validate: async (_body, ctx, existing) => {
    if (existing) await assertAdjustable(ctx.trx as Executor, existing.settle_month as string, existing.agent_id as number);
  },
});
