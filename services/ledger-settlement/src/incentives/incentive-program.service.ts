import { sql, type Selectable } from 'kysely';
import type { IncentiveMetric, IncentiveProgramTable, IncentiveRewardType } from '@csp/db';
import { incentiveTierProblems } from '@csp/domain';
import { AppError, money, notFound, rate, type ChangeLogEntry, type FieldError } from '@csp/service-kit';
import { inTransaction, type Executor } from '../period-closes/month-guard.js';
import { lockProgram, resultCountOf, tiersOf } from './incentive.repository.js';
import { MENU_PROGRAM, type TierReq } from './incentive-program.resource.js';

type ProgramRow = Selectable<IncentiveProgramTable>;

/** A program body (a type, not an interface, so the field table's loosely typed body converts to it). */
export type ProgramInput = {
  programCode?: string;
  programName: string;
  metric: IncentiveMetric;
  rewardType: IncentiveRewardType;
  periodFrom: string;
  periodTo: string;
  payMonth: string;
  description?: string | null | undefined;
  tiers: TierReq[];
  /** the version the client read (update only); a stale one is B002 */
  version?: number | undefined;
};

export interface ProgramResult {
  program: ProgramRow;
  changes: ChangeLogEntry[];
}

/** E411 with every problem of the body: period order, the metric a PCT reward needs, the tiers. */
function validateProgram(input: ProgramInput): void {
  const errors: FieldError[] = [];
  if (input.periodTo < input.periodFrom) errors.push({ field: 'periodTo', message: 'must not be before periodFrom' });
  if (input.payMonth < input.periodTo) errors.push({ field: 'payMonth', message: 'must not be before periodTo' });
  if (input.rewardType === 'PCT' && input.metric === 'RECRUIT_COUNT') {
    errors.push({ field: 'rewardType', message: 'PCT pays a percentage of a money figure: use NEW_PREMIUM or RECRUIT_COMMISSION, or FIXED' });
  }
  for (const p of incentiveTierProblems(input.rewardType, input.tiers)) {
    errors.push({ field: `tiers.${p.index}.${p.field}`, message: p.message });
  }
  if (errors.length > 0) throw new AppError('INVALID_PARAMETER', errors.length === 1 ? errors[0]!.message : undefined, { errors });
}

/** The tiers as stored, in the wire's formats, ordered by tier number (for comparisons and the change log). */
function tierKey(tiers: ReadonlyArray<{ tierNo: number; threshold: string; rewardAmount?: string | null; rewardPct?: string | null }>): string {
  return JSON.stringify(
    [...tiers]
      .sort((a, b) => a.tierNo - b.tierNo)
      .map((t) => [t.tierNo, money(t.threshold), money(t.rewardAmount ?? null), rate(t.rewardPct ?? null)]),
  );
}

async function storedTiers(trx: Executor, programId: number) {
  return (await tiersOf(trx, programId)).map((t) => ({
    tierNo: t.tier_no,
    threshold: t.threshold,
    rewardAmount: t.reward_amount,
    rewardPct: t.reward_pct,
  }));
}

async function writeTiers(trx: Executor, programId: number, tiers: readonly TierReq[]): Promise<void> {
  await trx.deleteFrom('incentive_tier').where('program_id', '=', programId).execute();
  await trx
    .insertInto('incentive_tier')
    .values(
      tiers.map((t) => ({
        program_id: programId,
        tier_no: t.tierNo,
        threshold: t.threshold,
        reward_amount: t.rewardAmount ?? null,
        reward_pct: t.rewardPct ?? null,
      })),
    )
    .execute();
}

/** The program's own columns from a create or update body (the code is set once, at create). */
function programColumns(input: ProgramInput) {
  return {
    program_name: input.programName,
    metric: input.metric,
    reward_type: input.rewardType,
    period_from: input.periodFrom,
    period_to: input.periodTo,
    pay_month: input.payMonth,
    description: input.description ?? null,
  };
}

/** A new program (DRAFT) with its tiers; a program code in use is B009. */
export async function createProgram(db: Executor, userId: number | null, input: ProgramInput): Promise<ProgramResult> {
  validateProgram(input);
  return inTransaction(db, async (trx) => {
    const program = await trx
      .insertInto('incentive_program')
      .values({ program_code: input.programCode!, ...programColumns(input), created_by: userId, updated_by: userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeTiers(trx, program.program_id, input.tiers);
    const after = { ...program, tiers: await storedTiers(trx, program.program_id) };
    return { program, changes: [{ menuCode: MENU_PROGRAM, tableName: 'incentive_program', recordId: program.program_id, action: 'CREATE', after }] };
  });
}

/**
 * Replaces a program's fields and tiers. A CLOSED program no longer changes (B001); once it has results
 * its tiers, period, pay month, metric and reward type are fixed (B001): the results were computed from
 * them. Name and description always change.
 */
export async function updateProgram(db: Executor, programId: number, userId: number | null, input: ProgramInput): Promise<ProgramResult> {
  validateProgram(input);
  return inTransaction(db, async (trx) => {
    const before = await lockProgram(trx, programId);
    if (!before) throw notFound(`Incentive program ${programId}`);
    if (input.version !== undefined && before.version !== input.version) throw new AppError('RULE_VERSION_CONFLICT');
    if (before.status === 'CLOSED') throw new AppError('ALREADY_CONFIRMED', `Incentive program ${programId} is CLOSED; it no longer changes`);
    const tiersBefore = await storedTiers(trx, programId);
    const tiersChanged = tierKey(tiersBefore) !== tierKey(input.tiers);
    const frozenChanged =
      before.period_from !== input.periodFrom ||
      before.period_to !== input.periodTo ||
      before.pay_month !== input.payMonth ||
      before.metric !== input.metric ||
      before.reward_type !== input.rewardType;
    if (tiersChanged || frozenChanged) {
      const results = await resultCountOf(trx, programId);
      if (results > 0) {
        throw new AppError(
          'ALREADY_CONFIRMED',
          `Incentive program ${programId} has ${results} result(s): its tiers, period, pay month, metric and reward type no longer change`,
        );
      }
    }
    const program = await trx
      .updateTable('incentive_program')
      .set({
        ...programColumns(input),
        updated_by: userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('program_id', '=', programId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (tiersChanged) await writeTiers(trx, programId, input.tiers);
    const after = { ...program, tiers: tiersChanged ? await storedTiers(trx, programId) : tiersBefore };
    return {
      program,
      changes: [{ menuCode: MENU_PROGRAM, tableName: 'incentive_program', recordId: programId, action: 'UPDATE', before: { ...before, tiers: tiersBefore }, after }],
    };
  });
}

const MOVES = {
  activate: { from: 'DRAFT', to: 'ACTIVE' },
  close: { from: 'ACTIVE', to: 'CLOSED' },
} as const;

/** DRAFT -> ACTIVE (activate) and ACTIVE -> CLOSED (close); any other state is B001. */
export async function moveProgram(db: Executor, programId: number, move: keyof typeof MOVES, userId: number | null): Promise<ProgramResult> {
  const { from, to } = MOVES[move];
  return inTransaction(db, async (trx) => {
    const before = await lockProgram(trx, programId);
    if (!before) throw notFound(`Incentive program ${programId}`);
    if (before.status !== from) throw new AppError('ALREADY_CONFIRMED', `Incentive program ${programId} is ${before.status}; ${move} needs ${from}`);
    const program = await trx
      .updateTable('incentive_program')
      .set({ status: to, updated_by: userId, updated_at: sql`now()`, version: sql`version + 1` })
      .where('program_id', '=', programId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { program, changes: [{ menuCode: MENU_PROGRAM, tableName: 'incentive_program', recordId: programId, action: 'UPDATE', before, after: program }] };
  });
}
