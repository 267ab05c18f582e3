import type { Decimal } from 'decimal.js';
import { toDec, toNonNegative, type DecimalInput } from './decimal.js';
import { pct, round2 } from './rounding.js';

/**
 * Incentive programs (DECISIONS "Commission types beyond recruit, maintain and override"): an agent whose
 * metric over the program's period reaches a tier's threshold gets that tier's reward. Tiers are ordered by
 * tier number with strictly increasing thresholds; the highest tier whose threshold is <= the measured
 * figure applies (a figure exactly on a threshold qualifies). The reward is the tier's fixed amount (FIXED)
 * or pct(measured, reward pct) (PCT, rule 1: HALF_UP to scale 2).
 */

export type IncentiveRewardKind = 'FIXED' | 'PCT';

export interface IncentiveTierInput {
  tierNo: number;
  threshold: DecimalInput;
  rewardAmount?: DecimalInput | null;
  rewardPct?: DecimalInput | null;
}

/** A problem of one tier of a program body; `index` is the tier's position in the list as given. */
export interface IncentiveTierProblem {
  index: number;
  field: 'tierNo' | 'threshold' | 'rewardAmount' | 'rewardPct';
  message: string;
}

const present = (v: DecimalInput | null | undefined): v is DecimalInput => v !== null && v !== undefined;

/**
 * Everything wrong with a program's tiers, in list order (empty = valid): each tier number once, the
 * reward that the reward type needs present and the other one absent, and thresholds strictly increasing
 * with the tier number (reported on the tier that breaks the order). Signs and scales are the caller's
 * schema's business. At least one tier is required.
 */
export function incentiveTierProblems(kind: IncentiveRewardKind, tiers: readonly IncentiveTierInput[]): IncentiveTierProblem[] {
  const problems: IncentiveTierProblem[] = [];
  const seen = new Set<number>();
  tiers.forEach((t, index) => {
    if (seen.has(t.tierNo)) problems.push({ index, field: 'tierNo', message: `tier number ${t.tierNo} is used twice` });
    else seen.add(t.tierNo);
    if (kind === 'FIXED') {
      if (!present(t.rewardAmount)) problems.push({ index, field: 'rewardAmount', message: 'is required for a FIXED program' });
      if (present(t.rewardPct)) problems.push({ index, field: 'rewardPct', message: 'is only taken by a PCT program' });
    } else {
      if (!present(t.rewardPct)) problems.push({ index, field: 'rewardPct', message: 'is required for a PCT program' });
      if (present(t.rewardAmount)) problems.push({ index, field: 'rewardAmount', message: 'is only taken by a FIXED program' });
    }
  });
  const ordered = tiers.map((t, index) => ({ t, index })).sort((a, b) => a.t.tierNo - b.t.tierNo);
  for (let i = 1; i < ordered.length; i++) {
    const prev = ordered[i - 1]!;
    const cur = ordered[i]!;
    if (cur.t.tierNo === prev.t.tierNo) continue;
    if (toDec(cur.t.threshold, 'threshold').lte(toDec(prev.t.threshold, 'threshold'))) {
      problems.push({
        index: cur.index,
        field: 'threshold',
        message: `must be greater than the threshold of tier ${prev.t.tierNo} (${String(prev.t.threshold)}): thresholds increase with the tier number`,
      });
    }
  }
  return problems.sort((a, b) => a.index - b.index);
}

/** The highest tier whose threshold is <= measured (exactly on the threshold qualifies); undefined = none. */
export function selectIncentiveTier<T extends IncentiveTierInput>(tiers: readonly T[], measured: DecimalInput): T | undefined {
  const value = toDec(measured, 'measured');
  let best: T | undefined;
  let bestThreshold: Decimal | undefined;
  for (const tier of tiers) {
    const threshold = toNonNegative(tier.threshold, 'threshold');
    if (threshold.gt(value)) continue;
    if (bestThreshold === undefined || threshold.gt(bestThreshold)) {
      best = tier;
      bestThreshold = threshold;
    }
  }
  return best;
}

/** The reward of a tier: FIXED = its amount (2 places), PCT = pct(measured, its pct). */
export function incentiveReward(kind: IncentiveRewardKind, tier: IncentiveTierInput, measured: DecimalInput): Decimal {
  if (kind === 'FIXED') return round2(toNonNegative(tier.rewardAmount ?? '0', 'rewardAmount'));
  return pct(toNonNegative(measured, 'measured'), toNonNegative(tier.rewardPct ?? '0', 'rewardPct'));
}

export interface IncentiveOutcome<T extends IncentiveTierInput> {
  tier: T;
  amount: Decimal;
}

/** Tier and reward of a measured figure; undefined when it reaches no tier. */
export function calcIncentive<T extends IncentiveTierInput>(
  kind: IncentiveRewardKind,
  tiers: readonly T[],
  measured: DecimalInput,
): IncentiveOutcome<T> | undefined {
  const tier = selectIncentiveTier(tiers, measured);
  return tier === undefined ? undefined : { tier, amount: incentiveReward(kind, tier, measured) };
}
