import { sql } from 'kysely';
import { HOLD_CONDITION_TYPES, HOLD_RELEASE_KINDS, HOLD_STATUSES } from '@csp/db';
import { evaluateHoldCondition } from '@csp/domain';
import { defineResource, f } from '@csp/service-kit';
import { conditionOf, factsOf, holdFacts, type StoredCondition, type StoredFacts } from './hold-condition.js';

const facts = holdFacts('h');

/**
 * Holds of settle rows (SETTLE_LIST): the held rows with their reason, release condition and why each one is
 * still held (decided now by the same domain rule the runs use); released holds stay as history.
 */
export const holdResource = defineResource({
  name: 'SettleHold',
  path: '/api/settle-holds',
  table: 'settle_hold',
  alias: 'h',
  menu: 'SETTLE_LIST',
  tags: ['Settlement holds'],
  create: false,
  update: false,
  delete: false,
  baseQuery: (db) =>
    db
      .selectFrom('settle_hold as h')
      .innerJoin('settle_master as s', 's.settle_id', 'h.settle_id')
      .leftJoin('agent as a', 'a.agent_id', 'h.agent_id'),
  fields: {
    holdId: f.id().label('Hold ID'),
    settleId: f.ref().nullable(false).filter().label('Settle ID'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().label('Agent').export({ width: 18 }),
    settleMonth: f.month().nullable(false).filter('range').sort().label('Settle month'),
    settleStatus: f.joined('s.status', 'text').label('Settlement status'),
    netAmount: f.joined('s.net_amount', 'money').label('보류 실지급액', 'Net held'),
    reasonCode: f.text().filter().label('Reason code'),
    reasonCodeName: f.codeName('HOLD_REASON', 'reasonCode').label('Reason'),
    reason: f.text().nullable(false).label('Reason text').export({ width: 30 }),
    conditionType: f.enum(HOLD_CONDITION_TYPES).nullable(false).filter().label('Release condition'),
    untilDate: f.date().label('Until'),
    trainingYear: f.int().label('Training year'),
    trainingHours: f.money().label('Training hours needed'),
    disputeId: f.ref().label('Dispute ID'),
    status: f.enum(HOLD_STATUSES).nullable(false).filter().sort().label('Status'),
    conditionMet: f.computed(sql`null`, 'bool').nullable(true).label('Condition met').describe('decided now (ACTIVE holds only)'),
    stillHeldBecause: f.computed(sql`null`, 'text').label('Why still held').export({ width: 40 }),
    trainingHoursDone: f.computed(facts.trainingHours, 'money').label('Training hours done'),
    disputeStatus: f.computed(facts.disputeStatus, 'text').label('Dispute status'),
    checkedOn: f.computed(facts.today, 'text').label('Checked on').export(false),
    validLicense: f.computed(facts.license, 'json').label('Valid license').export(false),
    heldBy: f.ref().label('Held by'),
    heldAt: f.timestamp().sort().label('Held at').export({ width: 24 }),
    releasedBy: f.ref().label('Released by'),
    releasedAt: f.timestamp().label('Released at').export({ width: 24 }),
    releaseKind: f.enum(HOLD_RELEASE_KINDS).label('Released how'),
    releaseNote: f.text().label('Release note').export({ width: 30 }),
    releaseRunId: f.ref().label('Release run'),
    lastCheckedAt: f.timestamp().label('Last checked').export({ width: 24 }),
    lastCheckNote: f.text().label('Last check').export({ width: 30 }),
  },
  statusField: 'status',
  dateFilter: 'heldAt',
  defaultSort: '-holdId',
  agentScope: 'agentId',
  mapResponse: (resp, row) => {
    if (resp.status !== 'ACTIVE') return { ...resp, conditionMet: null, stillHeldBecause: null };
    const state = evaluateHoldCondition(
      conditionOf({
        condition_type: row.conditionType,
        until_date: row.untilDate,
        training_year: row.trainingYear,
        training_hours: row.trainingHours,
        dispute_id: row.disputeId,
      } satisfies StoredCondition),
      factsOf({
        fact_today: row.checkedOn,
        fact_license: row.validLicense as StoredFacts['fact_license'],
        fact_training_hours: row.trainingHoursDone ?? '0',
        fact_dispute_status: row.disputeStatus,
      }),
    );
    const because = state.met
      ? `condition met (${state.because}): the next run releases it`
      : state.because;
    return { ...resp, conditionMet: state.met, stillHeldBecause: because };
  },
});
