import { sql } from 'kysely';
import { DISPUTE_REASON_CODES, DISPUTE_STATUSES, SETTLE_ROW_TABLES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

export const MENU_DISPUTE = 'DISPUTE';

/**
 * Commission disputes (DISPUTE, spec 3.1 commission_dispute): list/detail/export through the field table
 * (AGENT users see their own); raising one and its moves are workflow routes (dispute.routes.ts).
 */
export const disputeResource = defineResource({
  name: 'Dispute',
  path: '/api/disputes',
  table: 'commission_dispute',
  alias: 'd',
  menu: MENU_DISPUTE,
  tags: ['Disputes'],
  create: false,
  update: false,
  delete: false,
  baseQuery: (db) =>
    db
      .selectFrom('commission_dispute as d')
      .leftJoin('agent as a', 'a.agent_id', 'd.agent_id')
      .leftJoin('settle_correction as sc', 'sc.correction_id', 'd.correction_id'),
  fields: {
    disputeId: f.id().label('Dispute ID'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().label('Agent').export({ width: 18 }),
    settleMonth: f.month().nullable(false).filter('range').sort().label('Settle month'),
    targetTable: f.enum(SETTLE_ROW_TABLES).required().createOnly().filter().label('이의 대상 원장', 'Disputed table'),
    targetId: f.ref().required().createOnly().label('이의 대상 행', 'Disputed row'),
    settleId: f.ref().filter().label('Settle ID'),
    reasonCode: f.enum(DISPUTE_REASON_CODES).required().filter().label('Reason'),
    reasonText: f.text({ min: 1, max: 2000 }).required().search().label('Reason text').export({ width: 40 }),
    claimedAmount: f.money().save().label('Claimed amount'),
    fileGroupId: f
      .text({ max: 100, pattern: /^[A-Za-z0-9_.:-]+$/, patternMessage: 'must be a file group id' })
      .save()
      .label('Attachments group'),
    attachmentCount: f
      .computed(
        sql`(SELECT count(*) FROM file_storage fs WHERE fs.group_id = d.file_group_id AND NOT fs.is_deleted)`,
        'int',
      )
      .label('Attachments'),
    status: f.enum(DISPUTE_STATUSES).nullable(false).filter().sort().label('Status'),
    statusName: f.codeName('DISPUTE_STATUS', 'status').export(false),
    reviewNote: f.text().label('Review note').export({ width: 30 }),
    reviewedBy: f.ref().label('Reviewed by'),
    reviewedAt: f.timestamp().label('Reviewed at').export({ width: 24 }),
    decisionNote: f.text().label('Decision note').export({ width: 30 }),
    approvedAmount: f.money().label('Approved amount'),
    decidedBy: f.ref().label('Decided by'),
    decidedAt: f.timestamp().label('Decided at').export({ width: 24 }),
    correctionId: f.ref().label('Correction ID'),
    correctionStatus: f.joined('sc.status', 'text').label('Correction status'),
    correctionMonth: f.joined('sc.target_month', 'month').label('Correction booked into'),
    version: f.version().export(false),
    createdBy: f.createdBy().label('제기자', 'Raised by'),
    createdAt: f.createdAt().sort().label('제기 일시', 'Raised at'),
    updatedAt: f.updatedAt().export(false),
  },
  statusField: 'status',
  dateFilter: 'createdAt',
  defaultSort: '-disputeId',
  agentScope: 'agentId',
});
