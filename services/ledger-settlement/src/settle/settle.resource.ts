import { SETTLE_STATUSES, archiveAware } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

export { SETTLE_STATUSES };
export type SettleStatus = (typeof SETTLE_STATUSES)[number];

/**
 * settle_master with agent, organization and grade names (list, /excel, detail; AGENT users see
 * their own rows). Confirm/hold/release are workflow routes (settle.routes.ts).
 */
export const settleResource = defineResource({
  name: 'Settlement',
  path: '/api/settle',
  table: 'settle_master',
  alias: 's',
  menu: 'SETTLE_LIST',
  tags: ['Settlement'],
  create: false,
  update: false,
  delete: false,
  baseQuery: (db) =>
    archiveAware(db)
      .selectFrom('settle_master as s')
      .leftJoin('agent as a', 'a.agent_id', 's.agent_id')
      .leftJoin('organization as o', 'o.org_id', 'a.org_id')
      .leftJoin('grade as g', 'g.grade_id', 'a.grade_id'),
  fields: {
    settleId: f.id().label('Settle ID'),
    settleMonth: f.month().nullable(false).filter().sort().label('Settle month'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').sort().label('Agent').export({ width: 18 }),
    orgId: f.joined('a.org_id', 'ref').filter().export(false),
    orgName: f.joined('o.org_name', 'text').label('Organization').export({ width: 20 }),
    gradeName: f.joined('g.grade_name', 'text').export(false),
    recruitTotal: f.money().nullable(false).label('Recruit'),
    maintainTotal: f.money().nullable(false).label('Maintain'),
    overrideTotal: f.money().nullable(false).label('Override'),
    exceptionPlus: f.money().nullable(false).label('Exception plus'),
    exceptionMinus: f.money().nullable(false).label('Exception minus'),
    chargebackTotal: f.money().nullable(false).label('Chargeback'),
    correctionTotal: f.money().nullable(false).label('Corrections'),
    otherTotal: f.money().nullable(false).label('Other commission'),
    grossAmount: f.money().nullable(false).sort().label('Gross'),
    taxAmount: f.money().nullable(false).label('Tax'),
    netAmount: f.money().nullable(false).sort().label('Net'),
    status: f.enum(SETTLE_STATUSES).nullable(false).filter().label('Status'),
    statusName: f.codeName('SETTLE_STATUS', 'status').export(false),
    calcDate: f.timestamp().export(false),
    confirmedBy: f.ref().export(false),
    confirmedAt: f.timestamp().label('Confirmed at').export({ width: 24 }),
    holdReason: f.text().label('Hold reason').export({ width: 30 }),
    holdReasonCode: f.text().export(false),
    releasedBy: f.ref().export(false),
    releasedAt: f.timestamp().export(false),
    runId: f.ref().export(false),
    version: f.version().export(false),
    updatedAt: f.updatedAt().export(false),
  },
  defaultSort: 'settleId',
  agentScope: 'agentId',
});
