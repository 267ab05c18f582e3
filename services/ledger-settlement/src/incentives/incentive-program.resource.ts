import { sql } from 'kysely';
import { z } from 'zod';
import { INCENTIVE_METRICS, INCENTIVE_PROGRAM_STATUSES, INCENTIVE_REWARD_TYPES } from '@csp/db';
import { defineResource, f, zMoney, zRate } from '@csp/service-kit';

export const MENU_PROGRAM = 'INCENTIVE_PROG';

const notNegative = (v: string) => !v.startsWith('-');

/** A tier in a program body: threshold and the reward its program's type needs (FIXED amount or PCT). */
export const tierReq = z.object({
  tierNo: z.number().int().min(1).max(99),
  threshold: zMoney.refine(notNegative, 'must not be negative'),
  rewardAmount: zMoney.refine(notNegative, 'must not be negative').nullable().optional().describe('FIXED programs'),
  rewardPct: zRate.refine(notNegative, 'must not be negative').nullable().optional().describe('PCT programs: percent of the measured figure'),
});
export type TierReq = z.output<typeof tierReq>;

const tiersReq = z
  .array(tierReq)
  .min(1, 'a program needs at least one tier')
  .max(20)
  .describe('the whole tier list (replaced on update); thresholds increase strictly with tierNo');

export const tierResp = z.object({
  tierNo: z.number().int(),
  threshold: z.string(),
  rewardAmount: z.string().nullable(),
  rewardPct: z.string().nullable(),
});

/**
 * Incentive programs (INCENTIVE_PROG: READ/CREATE/UPDATE; settle/incentives): list/detail/export through
 * the field table (the detail carries the tiers); create and update take the tiers nested in the body and
 * the status moves DRAFT -> ACTIVE -> CLOSED are workflow routes (incentive-program.routes.ts).
 */
export const programResource = defineResource({
  name: 'IncentiveProgram',
  path: '/api/incentive-programs',
  table: 'incentive_program',
  alias: 'ip',
  menu: MENU_PROGRAM,
  tags: ['Incentive programs'],
  create: false,
  update: false,
  delete: false,
  fields: {
    programId: f.id().label('Program ID'),
    programCode: f.code({ max: 30 }).required().createOnly().sort().search().label('Code'),
    programName: f.text({ min: 1, max: 200 }).required().sort().search().label('Name').export({ width: 30 }),
    metric: f.enum(INCENTIVE_METRICS).required().filter().label('Metric'),
    rewardType: f.enum(INCENTIVE_REWARD_TYPES).required().filter().label('Reward'),
    periodFrom: f.month().required().sort().label('Period from'),
    periodTo: f.month().required().sort().label('Period to'),
    payMonth: f.month().required().sort().filter().label('Pay month'),
    status: f.enum(INCENTIVE_PROGRAM_STATUSES).nullable(false).filter().sort().label('Status'),
    description: f.text({ max: 1000 }).save().label('Description').export({ width: 30 }),
    tierCount: f.computed(sql`(SELECT count(*) FROM incentive_tier t WHERE t.program_id = ip.program_id)`, 'int').label('Tiers'),
    resultCount: f
      .computed(sql`(SELECT count(*) FROM incentive_result r WHERE r.program_id = ip.program_id)`, 'int')
      .label('Results'),
    tiers: f
      .computed(
        sql`(SELECT coalesce(json_agg(json_build_object('tierNo', t.tier_no, 'threshold', t.threshold::text,
               'rewardAmount', t.reward_amount::text, 'rewardPct', trim_scale(t.reward_pct)::text) ORDER BY t.tier_no), '[]'::json)
             FROM incentive_tier t WHERE t.program_id = ip.program_id)`,
        'json',
        z.array(tierResp),
      )
      .nullable(false)
      .detailOnly()
      .export(false),
    version: f.version().export(false),
    createdBy: f.createdBy().hidden(),
    createdAt: f.createdAt().sort().label('Created at'),
    updatedBy: f.updatedBy().hidden(),
    updatedAt: f.updatedAt().export(false),
  },
  defaultSort: '-programId',
  statusField: 'status',
});

export const programSaveReq = programResource.schemas.save.extend({ tiers: tiersReq });
export const programUpdateReq = programResource.schemas.update.extend({ tiers: tiersReq });
export type ProgramSave = z.output<typeof programSaveReq>;
