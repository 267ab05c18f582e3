import type { Decimal } from 'decimal.js';
import { toNonNegative, type DecimalInput } from './decimal.js';
import { findHalfOpen, type EffectiveRow } from './lookup.js';
import { pct } from './rounding.js';

export interface OrgNode {
  orgId: number;
  /** NULL = root */
  parentOrgId: number | null;
}

export interface OverrideAgent {
  agentId: number;
  orgId: number;
  gradeId: number;
  status: string;
}

export interface OverrideRuleRow extends EffectiveRow {
  overrideId: number;
  fromGrade: number;
  toGrade: number;
  /** percent */
  overridePct: DecimalInput;
  capAmount: DecimalInput | null;
  /** When set, the rule applies only to a base of this insurance type. */
  insuranceTypeCond?: string | null;
}

export interface OverrideIndex<R extends OverrideRuleRow> {
  parentOf: ReadonlyMap<number, number | null>;
  agentById: ReadonlyMap<number, OverrideAgent>;
  /** orgId -> gradeId -> ACTIVE agent ids, ascending */
  activeByOrgGrade: ReadonlyMap<number, ReadonlyMap<number, readonly number[]>>;
  rulesByFromGrade: ReadonlyMap<number, readonly R[]>;
}

export interface OverrideBasis {
  overrideId: number;
  fromGrade: number;
  toGrade: number;
  overridePct: string;
  capAmount: string | null;
  /** Organizations looked at, from the agent's own upward, ending with the receiver's. */
  orgsWalked: number[];
  receiverOrgId: number;
}

export interface OverrideRow {
  fromAgentId: number;
  toAgentId: number;
  baseAmount: Decimal;
  overridePct: Decimal;
  /** pct(base, overridePct) before the cap */
  uncappedAmount: Decimal;
  overrideAmount: Decimal;
  capped: boolean;
  basis: OverrideBasis;
}

export interface OverrideSkip {
  overrideId: number;
  toGrade: number;
  reason: 'no receiver';
  orgsWalked: number[];
}

export interface OverrideResult {
  rows: OverrideRow[];
  skipped: OverrideSkip[];
}

export interface OverrideQuery {
  agentId: number;
  /** The lower agent's recruit + maintain sum of the month. */
  base: DecimalInput;
  /** Rule validity date (half-open, like the other commission rules), e.g. the month's last day. */
  date: string;
  /** Insurance type of the base, for rules with insurance_type_cond. */
  insuranceType?: string | null;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Built once per batch run so that each of 10,000 agents costs a few map reads. */
export function buildOverrideIndex<R extends OverrideRuleRow>(input: {
  orgs: readonly OrgNode[];
  agents: readonly OverrideAgent[];
  rules: readonly R[];
}): OverrideIndex<R> {
  const parentOf = new Map(input.orgs.map((o) => [o.orgId, o.parentOrgId] as const));
  const agentById = new Map(input.agents.map((a) => [a.agentId, a] as const));
  const activeByOrgGrade = new Map<number, Map<number, number[]>>();
  for (const a of input.agents) {
    if (a.status !== 'ACTIVE') continue;
    let byGrade = activeByOrgGrade.get(a.orgId);
    if (!byGrade) activeByOrgGrade.set(a.orgId, (byGrade = new Map()));
    push(byGrade, a.gradeId, a.agentId);
  }
  for (const byGrade of activeByOrgGrade.values()) for (const ids of byGrade.values()) ids.sort((x, y) => x - y);
  const rulesByFromGrade = new Map<number, R[]>();
  for (const r of input.rules) push(rulesByFromGrade, r.fromGrade, r);
  return { parentOf, agentById, activeByOrgGrade, rulesByFromGrade };
}

/**
 * The receiver of an override to `toGrade`: the lowest-id ACTIVE agent of that grade in the nearest
 * organization, starting with the agent's own and walking up (never the agent itself). A cycle in
 * the tree ends the walk.
 */
export function findOverrideReceiver(
  index: OverrideIndex<OverrideRuleRow>,
  agent: OverrideAgent,
  toGrade: number,
): { receiverId: number | undefined; orgsWalked: number[] } {
  const orgsWalked: number[] = [];
  const seen = new Set<number>();
  let orgId: number | null | undefined = agent.orgId;
  while (orgId !== null && orgId !== undefined && !seen.has(orgId)) {
    seen.add(orgId);
    orgsWalked.push(orgId);
    const ids = index.activeByOrgGrade.get(orgId)?.get(toGrade);
    const receiverId = ids?.find((id) => id !== agent.agentId);
    if (receiverId !== undefined) return { receiverId, orgsWalked };
    orgId = index.parentOf.get(orgId);
  }
  return { receiverId: undefined, orgsWalked };
}

/** The rules for the agent's grade valid on the date; per target grade the newest (half-open, 2.4). */
function applicableRules<R extends OverrideRuleRow>(index: OverrideIndex<R>, fromGrade: number, query: OverrideQuery): R[] {
  const candidates = (index.rulesByFromGrade.get(fromGrade) ?? []).filter(
    (r) =>
      r.insuranceTypeCond === null || r.insuranceTypeCond === undefined || r.insuranceTypeCond === query.insuranceType,
  );
  const toGrades = [...new Set(candidates.map((r) => r.toGrade))];
  const chosen: R[] = [];
  for (const toGrade of toGrades) {
    const rule = findHalfOpen(candidates, query.date, (r) => r.toGrade === toGrade);
    if (rule) chosen.push(rule);
  }
  return chosen;
}

/**
 * Step 7 + DECISIONS for one lower agent: for each applicable rule from the agent's grade, the
 * receiver of the rule's to_grade gets override_amount = min(pct(base, override_pct), cap_amount)
 * (no cap when cap_amount is NULL). A zero base, an unknown agent or no rule give no rows.
 */
export function calcOverrides<R extends OverrideRuleRow>(index: OverrideIndex<R>, query: OverrideQuery): OverrideResult {
  const base = toNonNegative(query.base, 'base');
  const agent = index.agentById.get(query.agentId);
  const result: OverrideResult = { rows: [], skipped: [] };
  if (agent === undefined || base.isZero()) return result;
  for (const rule of applicableRules(index, agent.gradeId, query)) {
    const { receiverId, orgsWalked } = findOverrideReceiver(index, agent, rule.toGrade);
    if (receiverId === undefined) {
      result.skipped.push({ overrideId: rule.overrideId, toGrade: rule.toGrade, reason: 'no receiver', orgsWalked });
      continue;
    }
    const overridePct = toNonNegative(rule.overridePct, 'overridePct');
    const cap = rule.capAmount === null ? null : toNonNegative(rule.capAmount, 'capAmount');
    const uncappedAmount = pct(base, overridePct);
    const capped = cap !== null && uncappedAmount.gt(cap);
    result.rows.push({
      fromAgentId: agent.agentId,
      toAgentId: receiverId,
      baseAmount: base,
      overridePct,
      uncappedAmount,
      overrideAmount: capped ? cap : uncappedAmount,
      capped,
      basis: {
        overrideId: rule.overrideId,
        fromGrade: rule.fromGrade,
        toGrade: rule.toGrade,
        overridePct: overridePct.toFixed(),
        capAmount: cap === null ? null : cap.toFixed(2),
        orgsWalked,
        receiverOrgId: orgsWalked[orgsWalked.length - 1] as number,
      },
    });
  }
  return result;
}
