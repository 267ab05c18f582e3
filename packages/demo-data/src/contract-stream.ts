import type { StructurePlan } from './book-plan.js';
import { addMonths, daysIn, isoDate, settleMonthOf, type YearMonth } from './calendar.js';
import type { CopyValue } from '@csp/db';
import { personName } from './names.js';
import type { Prng } from './prng.js';

export const CONTRACT_COLUMNS = [
  'contract_id',
  'agent_id',
  'product_id',
  'policy_no',
  'contractor_name',
  'insured_name',
  'premium',
  'pay_cycle',
  'pay_period',
  'coverage_period',
  'status',
  'contract_date',
  'effective_date',
  'lapse_date',
  'revival_date',
];
export const SUCCESSION_COLUMNS = [
  'contract_id',
  'from_agent_id',
  'to_agent_id',
  'effective_month',
  'status',
  'reason',
];

const PAY_CYCLES = [
  ['MONTHLY', 80],
  ['QUARTERLY', 5],
  ['SEMI_ANNUAL', 3],
  ['ANNUAL', 7],
  ['SINGLE', 5],
] as const;
const LAPSE_SHARE = 0.08;
/** Months of history: contract dates lie in the 60 months before the current month. */
export const HISTORY_MONTHS = 60;

export interface ContractStats {
  contracts: number;
  lapses: number;
  revived: number;
  successions: number;
}

export interface ContractPlanInput {
  plan: StructurePlan;
  count: number;
  firstId: number;
  currentMonth: YearMonth;
  successionTarget: number;
}

/** Contracts per month, oldest month first (HISTORY_MONTHS entries, as even as possible). */
function monthCounts(count: number): number[] {
  const per = Math.floor(count / HISTORY_MONTHS);
  const extra = count % HISTORY_MONTHS;
  return Array.from({ length: HISTORY_MONTHS }, (_, i) => per + (i >= HISTORY_MONTHS - extra ? 1 : 0));
}

/** Chosen before streaming among contracts at least 14 months old (their maintain years have started). */
function chooseSuccessionIndexes(rng: Prng, oldEnough: number, target: number): Set<number> {
  const chosen = new Set<number>();
  const want = Math.min(target, Math.floor(oldEnough / 4));
  while (chosen.size < want) chosen.add(rng.int(0, oldEnough - 1));
  return chosen;
}

/**
 * Generates contract rows lazily (memory flat at any count) and collects the succession rows of the
 * pre-chosen contracts: handed to another agent of the same team from a recent month on.
 */
export function contractStream(rng: Prng, input: ContractPlanInput) {
  const { plan, count, firstId, currentMonth } = input;
  // Contract ids grow with the contract date, as in a real book (and index-friendly for COPY).
  const perMonth = monthCounts(count);
  const oldEnough = perMonth.slice(0, HISTORY_MONTHS - 13).reduce((a, b) => a + b, 0);
  const successionAt = chooseSuccessionIndexes(rng, oldEnough, input.successionTarget);
  const successions: CopyValue[][] = [];
  const stats: ContractStats = { contracts: 0, lapses: 0, revived: 0, successions: 0 };
  const agentCount = plan.agents.length;
  const productCount = plan.products.length;

  function successorOf(agentIndex: number): number | undefined {
    const team = plan.agents[agentIndex]!.team;
    const mates =
      team >= 0
        ? plan.agentsByTeam[team]!.filter((i) => i !== agentIndex && plan.agents[i]!.status === 'ACTIVE')
        : [];
    if (mates.length > 0) return plan.agents[rng.pick(mates)]!.agentId;
    if (agentCount < 2) return undefined;
    const other = (agentIndex + 1 + rng.int(0, agentCount - 2)) % agentCount;
    return plan.agents[other]!.agentId;
  }

  function* rows(): Generator<CopyValue[]> {
    let i = 0;
    for (let m = 0; m < HISTORY_MONTHS; m++) {
      const monthsBack = HISTORY_MONTHS - m;
      const month = addMonths(currentMonth, -monthsBack);
      const lastDay = daysIn(month);
      const days = Array.from({ length: perMonth[m]! }, () => rng.int(1, lastDay)).sort((a, b) => a - b);
      for (const day of days) {
        yield contractRow(i, monthsBack, month, isoDate(month, day));
        i++;
      }
    }
  }

  function contractRow(i: number, monthsBack: number, month: YearMonth, contractDate: string): CopyValue[] {
    const contractId = firstId + i;
    const agentIndex = rng.int(0, agentCount - 1);
    const agent = plan.agents[agentIndex]!;
    const product = plan.products[rng.int(0, productCount - 1)]!;
    const succession = successionAt.has(i);
    const payCycle = rng.weighted(PAY_CYCLES);
    let status = 'ACTIVE';
    let lapseDate: string | null = null;
    let revivalDate: string | null = null;
    if (!succession && monthsBack > 1 && rng.chance(LAPSE_SHARE)) {
      const lapseMonth = addMonths(month, rng.int(1, monthsBack - 1));
      lapseDate = isoDate(lapseMonth, rng.int(1, daysIn(lapseMonth)));
      status = 'LAPSE';
      stats.lapses++;
      if (rng.chance(0.05)) {
        status = 'REVIVE';
        revivalDate = lapseDate;
        stats.revived++;
      }
    }
    if (succession) {
      const to = successorOf(agentIndex);
      if (to !== undefined) {
        const effective = addMonths(currentMonth, -rng.int(0, Math.min(12, monthsBack - 13)));
        successions.push([
          contractId,
          agent.agentId,
          to,
          settleMonthOf(effective),
          'ACTIVE',
          '데모: 담당 설계사 인계',
        ]);
        stats.successions++;
      }
    }
    stats.contracts++;
    return [
      contractId,
      agent.agentId,
      product.productId,
      `DM${String(contractId).padStart(10, '0')}`,
      personName(rng),
      personName(rng),
      `${rng.int(20, 300) * 1000}.00`,
      payCycle,
      rng.pick([5, 10, 20]),
      rng.pick([10, 20, 30, 80]),
      status,
      contractDate,
      contractDate,
      lapseDate,
      revivalDate,
    ];
  }

  return { rows, successions, stats };
}
