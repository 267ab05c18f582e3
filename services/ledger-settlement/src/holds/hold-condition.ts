import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { HOLD_CONDITION_TYPES } from '@csp/db';
import type { HoldCondition, HoldFacts } from '@csp/domain';
import { zDate, zMoney } from '@csp/service-kit';

/** A hold's release condition as the API takes it (DECISIONS "Settlement lifecycle"). */
export const holdConditionSchema = z
  .object({
    type: z.enum(HOLD_CONDITION_TYPES),
    untilDate: zDate.optional().describe('UNTIL_DATE: released from this date on'),
    trainingYear: z.number().int().min(2000).max(2999).optional().describe('TRAINING_HOURS: the year counted'),
    trainingHours: zMoney.optional().describe('TRAINING_HOURS: hours needed (default system_config TRAINING_HOURS_REQUIRED)'),
    disputeId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().describe('DISPUTE_CLOSED: the dispute'),
  })
  .superRefine((c, ctx) => {
    const need = (field: 'untilDate' | 'trainingYear' | 'disputeId') => {
      if (c[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `is required for ${c.type}` });
    };
    if (c.type === 'UNTIL_DATE') need('untilDate');
    if (c.type === 'TRAINING_HOURS') need('trainingYear');
    if (c.type === 'DISPUTE_CLOSED') need('disputeId');
    if (c.trainingHours !== undefined && (c.trainingHours.startsWith('-') || /^0*(\.0*)?$/.test(c.trainingHours))) {
      ctx.addIssue({ code: 'custom', path: ['trainingHours'], message: 'must be a positive number of hours' });
    }
  });

export type HoldConditionInput = z.output<typeof holdConditionSchema>;

/** settle_hold columns of a condition. */
export function holdColumns(c: HoldConditionInput) {
  return {
    condition_type: c.type,
    until_date: c.type === 'UNTIL_DATE' ? (c.untilDate ?? null) : null,
    training_year: c.type === 'TRAINING_HOURS' ? (c.trainingYear ?? null) : null,
    training_hours: c.type === 'TRAINING_HOURS' ? (c.trainingHours ?? null) : null,
    dispute_id: c.type === 'DISPUTE_CLOSED' ? (c.disputeId ?? null) : null,
  };
}

/** The stored condition of a settle_hold row, for the domain. */
export interface StoredCondition {
  condition_type: string;
  until_date: string | null;
  training_year: number | null;
  training_hours: string | null;
  dispute_id: number | null;
}

export function conditionOf(row: StoredCondition): HoldCondition {
  switch (row.condition_type) {
    case 'UNTIL_DATE':
      return { type: 'UNTIL_DATE', untilDate: row.until_date! };
    case 'LICENSE_VALID':
      return { type: 'LICENSE_VALID' };
    case 'TRAINING_HOURS':
      return { type: 'TRAINING_HOURS', year: Number(row.training_year), hours: row.training_hours! };
    case 'DISPUTE_CLOSED':
      return { type: 'DISPUTE_CLOSED', disputeId: Number(row.dispute_id) };
    default:
      return { type: 'NONE' };
  }
}

/** The facts a condition is decided on, as read by `holdFactColumns` (today = the database's current_date). */
export interface StoredFacts {
  fact_today: string;
  fact_license: { licenseNo: string; expiryDate: string | null } | null;
  fact_training_hours: string;
  fact_dispute_status: string | null;
}

export function factsOf(row: StoredFacts): HoldFacts {
  return {
    today: row.fact_today,
    validLicense: row.fact_license,
    trainingHours: row.fact_training_hours,
    disputeStatus: row.fact_dispute_status,
  };
}

/**
 * SQL reading the facts of settle_hold `h`: a license valid today (ACTIVE, issued, not expired; the longest
 * valid first), COMPLETED training hours of the condition's year, the dispute's status. One place for the
 * batch release and the held list.
 */
export const holdFacts = (h: string) => {
  const ref = (column: string) => sql.ref(`${h}.${column}`);
  return {
    today: sql<string>`current_date::text`,
    license: sql<unknown>`(SELECT jsonb_build_object('licenseNo', l.license_no, 'expiryDate', l.expiry_date)
      FROM agent_license l WHERE l.agent_id = ${ref('agent_id')} AND l.status = 'ACTIVE'
        AND l.issue_date <= current_date AND (l.expiry_date IS NULL OR l.expiry_date >= current_date)
      ORDER BY l.expiry_date DESC NULLS FIRST LIMIT 1)`,
    trainingHours: sql<string>`(SELECT coalesce(sum(t.hours), 0)::text FROM agent_training t
      WHERE t.agent_id = ${ref('agent_id')} AND t.status = 'COMPLETED'
        AND t.training_date >= make_date(${ref('training_year')}, 1, 1)
        AND t.training_date < make_date(${ref('training_year')} + 1, 1, 1))`,
    disputeStatus: sql<string | null>`(SELECT d.status FROM commission_dispute d WHERE d.dispute_id = ${ref('dispute_id')})`,
  } satisfies Record<string, RawBuilder<unknown>>;
};
