import type { Db } from '@csp/db';

/**
 * Recruit/maintain rows store a compact calc_basis (only what the row's columns do not hold, rules by id +
 * version; shapes in STEPS.md). The explain API shows the full basis, rebuilt here from the row's columns
 * and the rule rows. Rows written before the compact form carry the full basis: their stored values win.
 */

type Obj = Record<string, unknown>;

export type LedgerStep = 'calcRecruit' | 'calcMaintain';

/** The ledger columns the full basis repeats. */
export interface LedgerBasisRow {
  calc_basis: unknown;
  run_id: number | null;
  commission_year: number;
  premium: string;
  pay_method: string | null;
  insurance_type: string | null;
}

interface Period {
  effectiveFrom: string;
  effectiveTo: string | null;
}

export interface RulePeriods {
  rates: ReadonlyMap<number, Period>;
  payouts: ReadonlyMap<number, Period>;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stale rows (kept for insurer data) store their own small basis, shown as stored. */
const expandable = (basis: unknown): basis is Obj => isObj(basis) && basis.stale !== true;

/** Rule ids whose validity the stored basis lacks. */
function missingPeriodIds(rows: readonly LedgerBasisRow[], key: string, idKey: string): number[] {
  const ids = new Set<number>();
  for (const r of rows) {
    if (!expandable(r.calc_basis)) continue;
    const rule = r.calc_basis[key];
    if (isObj(rule) && !('effectiveFrom' in rule) && typeof rule[idKey] === 'number') ids.add(rule[idKey]);
  }
  return [...ids];
}

/** One query per rule table for all the distinct rule ids of the given rows. */
export async function loadRulePeriods(
  db: Db,
  rows: readonly LedgerBasisRow[],
): Promise<RulePeriods> {
  const rateIds = missingPeriodIds(rows, 'companyRate', 'rateId');
  const ruleIds = missingPeriodIds(rows, 'payoutRule', 'ruleId');
  const [rates, payouts] = await Promise.all([
    rateIds.length === 0
      ? []
      : db
          .selectFrom('commission_rate')
          .select(['rate_id as id', 'effective_from', 'effective_to'])
          .where('rate_id', 'in', rateIds)
          .execute(),
    ruleIds.length === 0
      ? []
      : db
          .selectFrom('payout_rule')
          .select(['rule_id as id', 'effective_from', 'effective_to'])
          .where('rule_id', 'in', ruleIds)
          .execute(),
  ]);
  const periods = (list: readonly { id: unknown; effective_from: string; effective_to: string | null }[]) =>
    new Map<number, Period>(
      list.map((r) => [Number(r.id), { effectiveFrom: r.effective_from, effectiveTo: r.effective_to }]),
    );
  return { rates: periods(rates), payouts: periods(payouts) };
}

/** jsonb's key order (shorter keys first, then bytewise), so an expanded basis prints as a stored full one did. */
function jsonbOrdered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrdered);
  if (!isObj(value)) return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, jsonbOrdered(value[k])]));
}

function withPeriod(rule: unknown, idKey: string, periods: ReadonlyMap<number, Period>): unknown {
  if (!isObj(rule) || 'effectiveFrom' in rule) return rule;
  const period = periods.get(rule[idKey] as number);
  // a rule row deleted since the calculation: its validity is unknown
  return period ? { ...period, ...rule } : rule;
}

/** The full calc_basis of a recruit/maintain row (as stored before the compact form). */
export function expandLedgerBasis(step: LedgerStep, row: LedgerBasisRow, periods: RulePeriods): Obj | null {
  const stored = row.calc_basis;
  if (!expandable(stored)) return (stored ?? null) as Obj | null;
  return jsonbOrdered({
    step,
    runId: row.run_id === null ? null : Number(row.run_id),
    commissionYear: row.commission_year,
    premium: row.premium,
    payMethod: row.pay_method,
    insuranceType: row.insurance_type,
    succession: null,
    reconcile: null,
    ...stored,
    ...('companyRate' in stored && { companyRate: withPeriod(stored.companyRate, 'rateId', periods.rates) }),
    ...('payoutRule' in stored && { payoutRule: withPeriod(stored.payoutRule, 'ruleId', periods.payouts) }),
  }) as Obj;
}
