import {
  commissionYearInMonth,
  isDateInSettleMonth,
  lastDayOfMonth,
  parseSettleMonth,
  settleMonthDiff,
  settleMonthOfDate,
} from './calendar.js';
import { toDec, toNonNegative, type Dec, type DecimalInput } from './decimal.js';
import { DomainError } from './errors.js';
import { findHalfOpen, type EffectiveRow } from './lookup.js';
import { isPremiumDue } from './maintain-eligibility.js';
import { formatMoney, formatRate, pct } from './rounding.js';

/*
 * The commission types beyond recruit, maintain and override that are computed per contract or agent
 * (DECISIONS "Commission types beyond recruit, maintain and override"). Incentives are computed per
 * program elsewhere. Our definitions where the decision leaves room:
 *
 * - No rule, no line: a type without an applicable rule writes nothing (so with no rule configured
 *   every figure stays as rule 1.2.4 reads). Rules are looked up half-open [from, to), highest version
 *   first (findHalfOpen), as of: the last day of the settle month for COLLECTION, PERSISTENCY and
 *   APPOINTMENT (period types), the endorsement date for RENEWAL and the revival date for REINSTATEMENT
 *   (event types).
 * - Payee: COLLECTION, RENEWAL and REINSTATEMENT go to the contract's current agent (the successor of
 *   rule 1.2.10 when a succession applies; the caller resolves it); PERSISTENCY to the recruiting agent
 *   (contract.agent_id); APPOINTMENT to the agent itself.
 * - COLLECTION: contracts ACTIVE or REVIVE (like maintain), commission year >= rule.minCommissionYear,
 *   only in months a premium falls due for the pay cycle (isPremiumDue); pct(premium, rate).
 * - RENEWAL: an APPLIED endorsement of type RENEWAL dated in the month on a contract ACTIVE or REVIVE.
 *   Endorsements do not rewrite contract.premium, so the renewed premium = contract premium + the
 *   endorsement's premium_change (a negative result is refused). Several in one month: the latest
 *   (endorse date, then id) counts; one line per contract and month.
 * - REINSTATEMENT: a REVIVE contract whose revival date is in the month: pct(premium, rate). The
 *   chargeback installments of the lapse it ends that are still CALCULATED and due from the revival
 *   month on are cancelled (revivalCancellations); CONFIRMED ones stay.
 * - PERSISTENCY: months counted with the contract month as month 1; at month 13 and 25 a contract in
 *   force at the end of that month (isInForceAt) earns pct(sum of its recruit agent_amount, bonus pct).
 *   A contract without recruit ledger rows has nothing to earn a bonus on: no line.
 * - APPOINTMENT: an ACTIVE agent in months 1..rule.months after join_date (join month = month 1) gets
 *   the rule's monthly_amount for its grade; the line's milestoneMonth holds the month number.
 * Amounts follow recruit/maintain: pct HALF_UP to 2 places (rule 1), money written with 2 places.
 */

export type OtherCommissionType = 'COLLECTION' | 'RENEWAL' | 'REINSTATEMENT' | 'PERSISTENCY' | 'APPOINTMENT';

/** Columns every rule of these types has (camelCased). */
export interface OtherRuleRow extends EffectiveRow {
  ruleId: number;
  version: number;
}

export interface CollectionRuleRow extends OtherRuleRow {
  companyCode: string;
  insuranceType: string;
  minCommissionYear: number;
  ratePct: DecimalInput;
}

/** renewal_rule and reinstatement_rule. */
export interface RateRuleRow extends OtherRuleRow {
  companyCode: string;
  insuranceType: string;
  ratePct: DecimalInput;
}

export interface PersistencyRuleRow extends OtherRuleRow {
  milestoneMonth: number;
  insuranceType: string;
  bonusPct: DecimalInput;
}

export interface AppointmentRuleRow extends OtherRuleRow {
  gradeId: number;
  months: number;
  monthlyAmount: DecimalInput;
}

export interface OtherCommissionRules {
  collection: readonly CollectionRuleRow[];
  renewal: readonly RateRuleRow[];
  reinstatement: readonly RateRuleRow[];
  persistency: readonly PersistencyRuleRow[];
  appointment: readonly AppointmentRuleRow[];
}

export interface OtherContract {
  contractId: number;
  /** The recruiting agent (contract.agent_id). */
  agentId: number;
  companyCode: string | null;
  insuranceType: string | null;
  premium: DecimalInput;
  payCycle: string;
  status: string;
  contractDate: string | null;
  lapseDate: string | null;
  revivalDate: string | null;
}

/** Who is paid a contract's servicing commission (collection, renewal, reinstatement). */
export interface OtherPayee {
  agentId: number;
  /** The succession that made agentId the payee, when one applies. */
  successionId?: number | null;
}

export interface RenewalEndorsement {
  endorsementId: number;
  endorseType: string;
  endorseDate: string;
  status: string;
  premiumChange: DecimalInput;
}

export interface RevivalChargeback {
  cbId: number;
  settleMonth: string;
  lapseMonth: string;
  status: string;
  /** The revival date a previous calculation cancelled the row for (chargeback.calc_basis.cancelledByRevival). */
  cancelledByRevival?: string | null;
}

export interface AppointmentAgent {
  agentId: number;
  gradeId: number;
  status: string;
  joinDate: string | null;
}

/** One other_commission_ledger row as the rules compute it (money and rates as text). */
export interface OtherCommissionLine {
  commissionType: OtherCommissionType;
  contractId: number | null;
  agentId: number;
  commissionYear: number | null;
  milestoneMonth: number | null;
  /** What the rate applies to; the fixed amount for APPOINTMENT. */
  baseAmount: string;
  ratePct: string;
  agentAmount: string;
  ruleId: number;
  ruleVersion: number;
  /** RENEWAL: the endorsement id. */
  sourceId: number | null;
  /** Why: the rule (with its validity) and the inputs the row's columns do not hold. */
  basis: Record<string, unknown>;
}

const IN_FORCE = new Set(['ACTIVE', 'REVIVE']);
export const PERSISTENCY_MILESTONE_MONTHS: readonly number[] = [13, 25];

function ruleBasis(rule: OtherRuleRow, rate: Record<string, string>) {
  return { ruleId: rule.ruleId, version: rule.version, ...rate, effectiveFrom: rule.effectiveFrom, effectiveTo: rule.effectiveTo };
}

/** A contract's line of the month: pct(base, rate) under a rule, with the basis every type writes. */
interface PctLine {
  type: Exclude<OtherCommissionType, 'APPOINTMENT'>;
  contractId: number;
  agentId: number;
  commissionYear: number | null;
  milestoneMonth?: number;
  base: Dec;
  rate: Dec;
  rule: OtherRuleRow;
  /** The rule's rate as the basis names it (persistency: bonusPct), with any other rule column shown. */
  ruleRate: (rate: string) => Record<string, string>;
  rateDate: string;
  sourceId?: number;
  /** The type's own inputs, after type, rateDate and rule. */
  basis: Record<string, unknown>;
}

function pctLine(l: PctLine): OtherCommissionLine {
  const rate = formatRate(l.rate);
  return {
    commissionType: l.type,
    contractId: l.contractId,
    agentId: l.agentId,
    commissionYear: l.commissionYear,
    milestoneMonth: l.milestoneMonth ?? null,
    baseAmount: formatMoney(l.base),
    ratePct: rate,
    agentAmount: formatMoney(pct(l.base, l.rate)),
    ruleId: l.rule.ruleId,
    ruleVersion: l.rule.version,
    sourceId: l.sourceId ?? null,
    basis: { type: l.type, rateDate: l.rateDate, rule: ruleBasis(l.rule, l.ruleRate(rate)), ...l.basis },
  };
}

/** Who a servicing line (collection, renewal, reinstatement) went to instead of the contract's agent. */
function servicingBasis(contract: OtherContract, payee: OtherPayee) {
  return { contractAgentId: contract.agentId, successionId: payee.successionId ?? null };
}

function yearInMonth(contract: OtherContract, settleMonth: string): number | null {
  return contract.contractDate === null ? null : commissionYearInMonth(contract.contractDate, settleMonth);
}

// ---- rule lookups (half-open, highest version) ---------------------------------------------------

export function lookupCollectionRule<T extends CollectionRuleRow>(
  rules: readonly T[],
  query: { companyCode: string | null; insuranceType: string | null; date: string },
): T | undefined {
  return findHalfOpen(rules, query.date, (r) => r.companyCode === query.companyCode && r.insuranceType === query.insuranceType);
}

/** Renewal and reinstatement rules: by company and insurance type. */
export function lookupRateRule<T extends RateRuleRow>(
  rules: readonly T[],
  query: { companyCode: string | null; insuranceType: string | null; date: string },
): T | undefined {
  return findHalfOpen(rules, query.date, (r) => r.companyCode === query.companyCode && r.insuranceType === query.insuranceType);
}

export function lookupPersistencyRule<T extends PersistencyRuleRow>(
  rules: readonly T[],
  query: { milestoneMonth: number; insuranceType: string | null; date: string },
): T | undefined {
  return findHalfOpen(
    rules,
    query.date,
    (r) => r.milestoneMonth === query.milestoneMonth && r.insuranceType === query.insuranceType,
  );
}

export function lookupAppointmentRule<T extends AppointmentRuleRow>(
  rules: readonly T[],
  query: { gradeId: number; date: string },
): T | undefined {
  return findHalfOpen(rules, query.date, (r) => r.gradeId === query.gradeId);
}

// ---- calendar helpers -----------------------------------------------------------------------------

/** Month number of a settle month counted from `date`'s month as month 1 (0 or less: before it). */
export function monthNumberSince(date: string, settleMonth: string): number {
  return settleMonthDiff(settleMonthOfDate(date), settleMonth) + 1;
}

/** 13 or 25 when the settle month is a persistency milestone of the contract, else undefined. */
export function persistencyMilestone(contractDate: string, settleMonth: string): number | undefined {
  const n = monthNumberSince(contractDate, settleMonth);
  return PERSISTENCY_MILESTONE_MONTHS.includes(n) ? n : undefined;
}

/**
 * Whether the contract was in force on `date`: never when TERMINATE (it has no date); a LAPSE contract
 * until its lapse date; a REVIVE contract unless it had lapsed by then and was revived only later.
 */
export function isInForceAt(
  contract: Pick<OtherContract, 'status' | 'lapseDate' | 'revivalDate'>,
  date: string,
): boolean {
  const lapsedBy = contract.lapseDate !== null && contract.lapseDate <= date;
  switch (contract.status) {
    case 'TERMINATE':
      return false;
    case 'LAPSE':
      return !lapsedBy;
    case 'REVIVE':
      return !lapsedBy || (contract.revivalDate !== null && contract.revivalDate <= date);
    default:
      return true;
  }
}

// ---- the five rules --------------------------------------------------------------------------------

/** COLLECTION: pct(premium, rate) in a month a premium falls due, commission year >= the rule's minimum. */
export function collectionLine(
  contract: OtherContract,
  payee: OtherPayee,
  settleMonth: string,
  rules: readonly CollectionRuleRow[],
): OtherCommissionLine | undefined {
  const date = lastDayOfMonth(settleMonth);
  if (!IN_FORCE.has(contract.status) || contract.contractDate === null) return undefined;
  const rule = lookupCollectionRule(rules, { ...contract, date });
  if (!rule) return undefined;
  const commissionYear = commissionYearInMonth(contract.contractDate, settleMonth);
  if (commissionYear < rule.minCommissionYear) return undefined;
  if (!isPremiumDue(contract.contractDate, contract.payCycle, settleMonth)) return undefined;
  return pctLine({
    type: 'COLLECTION',
    contractId: contract.contractId,
    agentId: payee.agentId,
    commissionYear,
    base: toNonNegative(contract.premium, 'premium'),
    rate: toNonNegative(rule.ratePct, 'ratePct'),
    rule,
    ruleRate: (ratePct) => ({ ratePct, minCommissionYear: String(rule.minCommissionYear) }),
    rateDate: date,
    basis: { contractDate: contract.contractDate, payCycle: contract.payCycle, ...servicingBasis(contract, payee) },
  });
}

/** The RENEWAL endorsement that counts in the month: APPLIED, dated in the month, the latest one. */
export function monthRenewal<T extends RenewalEndorsement>(endorsements: readonly T[], settleMonth: string): T | undefined {
  let best: T | undefined;
  for (const e of endorsements) {
    if (e.endorseType !== 'RENEWAL' || e.status !== 'APPLIED' || !isDateInSettleMonth(e.endorseDate, settleMonth)) continue;
    if (
      best === undefined ||
      e.endorseDate > best.endorseDate ||
      (e.endorseDate === best.endorseDate && e.endorsementId > best.endorsementId)
    ) {
      best = e;
    }
  }
  return best;
}

/** RENEWAL: pct(contract premium + premium_change, rate) for the month's RENEWAL endorsement. */
export function renewalLine(
  contract: OtherContract,
  endorsements: readonly RenewalEndorsement[],
  payee: OtherPayee,
  settleMonth: string,
  rules: readonly RateRuleRow[],
): OtherCommissionLine | undefined {
  if (!IN_FORCE.has(contract.status)) return undefined;
  const endorsement = monthRenewal(endorsements, settleMonth);
  if (!endorsement) return undefined;
  const rule = lookupRateRule(rules, { ...contract, date: endorsement.endorseDate });
  if (!rule) return undefined;
  const premium = toNonNegative(contract.premium, 'premium');
  const change = toDec(endorsement.premiumChange, 'premiumChange');
  const renewed = premium.plus(change);
  if (renewed.isNegative() && !renewed.isZero()) {
    throw new DomainError('NEGATIVE_AMOUNT', 'renewed premium (premium + premiumChange) must not be negative', 'premiumChange');
  }
  return pctLine({
    type: 'RENEWAL',
    contractId: contract.contractId,
    agentId: payee.agentId,
    commissionYear: yearInMonth(contract, settleMonth),
    base: renewed,
    rate: toNonNegative(rule.ratePct, 'ratePct'),
    rule,
    ruleRate: (ratePct) => ({ ratePct }),
    rateDate: endorsement.endorseDate,
    sourceId: endorsement.endorsementId,
    basis: {
      endorsementId: endorsement.endorsementId,
      endorseDate: endorsement.endorseDate,
      premium: formatMoney(premium),
      premiumChange: formatMoney(change),
      renewedPremium: formatMoney(renewed),
      ...servicingBasis(contract, payee),
    },
  });
}

function revivedInMonth(contract: OtherContract, settleMonth: string): contract is OtherContract & { revivalDate: string } {
  return contract.status === 'REVIVE' && contract.revivalDate !== null && isDateInSettleMonth(contract.revivalDate, settleMonth);
}

/**
 * The chargeback installments a revival in the month cancels: of the lapse it ends (the contract's
 * lapse month, or any lapse up to the revival when no lapse date is kept), due from the revival month
 * on and still CALCULATED. `cancelled` also lists those a previous run cancelled for the same revival,
 * so a re-run explains the same rows.
 */
export function revivalCancellations(
  contract: OtherContract,
  settleMonth: string,
  installments: readonly RevivalChargeback[],
): { cancel: number[]; cancelled: number[] } {
  parseSettleMonth(settleMonth);
  if (!revivedInMonth(contract, settleMonth)) return { cancel: [], cancelled: [] };
  const lapseMonth = contract.lapseDate === null ? null : settleMonthOfDate(contract.lapseDate);
  const ofLapse = installments.filter(
    (i) => (lapseMonth === null ? i.lapseMonth <= settleMonth : i.lapseMonth === lapseMonth) && i.settleMonth >= settleMonth,
  );
  const cancel = ofLapse.filter((i) => i.status === 'CALCULATED').map((i) => i.cbId);
  const before = ofLapse
    .filter((i) => i.status === 'CANCELLED' && i.cancelledByRevival === contract.revivalDate)
    .map((i) => i.cbId);
  const byId = (a: number, b: number) => a - b;
  return { cancel: cancel.sort(byId), cancelled: [...cancel, ...before].sort(byId) };
}

/** REINSTATEMENT: pct(premium, rate) when the contract is revived in the month. */
export function reinstatementLine(
  contract: OtherContract,
  payee: OtherPayee,
  settleMonth: string,
  rules: readonly RateRuleRow[],
  cancelledChargebacks: readonly number[] = [],
): OtherCommissionLine | undefined {
  if (!revivedInMonth(contract, settleMonth)) return undefined;
  const rule = lookupRateRule(rules, { ...contract, date: contract.revivalDate });
  if (!rule) return undefined;
  return pctLine({
    type: 'REINSTATEMENT',
    contractId: contract.contractId,
    agentId: payee.agentId,
    commissionYear: yearInMonth(contract, settleMonth),
    base: toNonNegative(contract.premium, 'premium'),
    rate: toNonNegative(rule.ratePct, 'ratePct'),
    rule,
    ruleRate: (ratePct) => ({ ratePct }),
    rateDate: contract.revivalDate,
    basis: {
      lapseDate: contract.lapseDate,
      revivalDate: contract.revivalDate,
      cancelledChargebacks: [...cancelledChargebacks],
      ...servicingBasis(contract, payee),
    },
  });
}

/** The contract's recruit commission: sum of its recruit_ledger agent_amount and the number of rows. */
export interface RecruitEarned {
  amount: DecimalInput;
  rows: number;
}

/** PERSISTENCY: at month 13 or 25, in force at its end, pct(recruit agent_amount, bonus pct), to the recruiter. */
export function persistencyLine(
  contract: OtherContract,
  settleMonth: string,
  rules: readonly PersistencyRuleRow[],
  recruit: RecruitEarned,
): OtherCommissionLine | undefined {
  if (contract.contractDate === null || recruit.rows === 0) return undefined;
  const milestone = persistencyMilestone(contract.contractDate, settleMonth);
  if (milestone === undefined) return undefined;
  const date = lastDayOfMonth(settleMonth);
  if (!isInForceAt(contract, date)) return undefined;
  const rule = lookupPersistencyRule(rules, { milestoneMonth: milestone, insuranceType: contract.insuranceType, date });
  if (!rule) return undefined;
  const base = toDec(recruit.amount, 'recruitAmount');
  return pctLine({
    type: 'PERSISTENCY',
    contractId: contract.contractId,
    agentId: contract.agentId,
    commissionYear: commissionYearInMonth(contract.contractDate, settleMonth),
    milestoneMonth: milestone,
    base,
    rate: toNonNegative(rule.bonusPct, 'bonusPct'),
    rule,
    ruleRate: (bonusPct) => ({ bonusPct }),
    rateDate: date,
    basis: {
      contractDate: contract.contractDate,
      milestoneMonth: milestone,
      contractStatus: contract.status,
      recruitRows: recruit.rows,
      recruitAmount: formatMoney(base),
    },
  });
}

/** APPOINTMENT: the grade's fixed monthly amount in months 1..months after join_date (join month = 1). */
export function appointmentLine(
  agent: AppointmentAgent,
  settleMonth: string,
  rules: readonly AppointmentRuleRow[],
): OtherCommissionLine | undefined {
  if (agent.status !== 'ACTIVE' || agent.joinDate === null) return undefined;
  const monthNo = monthNumberSince(agent.joinDate, settleMonth);
  if (monthNo < 1) return undefined;
  const date = lastDayOfMonth(settleMonth);
  const rule = lookupAppointmentRule(rules, { gradeId: agent.gradeId, date });
  if (!rule || monthNo > rule.months) return undefined;
  const amount = formatMoney(toNonNegative(rule.monthlyAmount, 'monthlyAmount'));
  return {
    commissionType: 'APPOINTMENT',
    contractId: null,
    agentId: agent.agentId,
    commissionYear: null,
    milestoneMonth: monthNo,
    baseAmount: amount,
    ratePct: '0',
    agentAmount: amount,
    ruleId: rule.ruleId,
    ruleVersion: rule.version,
    sourceId: null,
    basis: {
      type: 'APPOINTMENT',
      rateDate: date,
      rule: ruleBasis(rule, { monthlyAmount: amount, months: String(rule.months) }),
      gradeId: agent.gradeId,
      joinDate: agent.joinDate,
      monthNo,
    },
  };
}
