import type { StepContext } from '@csp/batch';
import { buildOverrideIndex, toNonNegative, type OverrideIndex, type OverrideRuleRow } from '@csp/domain';
import { agentsNotEmployedIn } from './employment.js';
import { pricingOf } from './pricing.js';
import { perRun } from './run-cache.js';

export interface OverrideRule extends OverrideRuleRow {
  version: number;
}

export interface OverrideSetup {
  /** rules without insurance_type_cond: applied to the lower agent's whole base */
  plain: OverrideIndex<OverrideRule>;
  /** rules with insurance_type_cond: applied to the base of that insurance type only */
  conditioned: OverrideIndex<OverrideRule>;
  /** insurance types some rule is conditioned on */
  conditionedTypes: ReadonlySet<string>;
}

/** Organization tree, the month's employed agents and override rules, indexed once per run (domain buildOverrideIndex). */
export function overrideSetupOf(ctx: StepContext): Promise<OverrideSetup> {
  return perRun(ctx, 'override-index', async () => {
    const [pricing, notEmployed, orgs, rules] = await Promise.all([
      pricingOf(ctx),
      agentsNotEmployedIn(ctx.db, ctx.settleMonth),
      ctx.db.selectFrom('organization').select(['org_id', 'parent_org_id']).execute(),
      ctx.db
        .selectFrom('override_rule')
        .select([
          'override_id',
          'from_grade',
          'to_grade',
          'override_pct',
          'cap_amount',
          'insurance_type_cond',
          'effective_from',
          'effective_to',
          'version',
        ])
        .execute(),
    ]);
    const ruleRows: OverrideRule[] = rules.map((r) => ({
      overrideId: r.override_id,
      fromGrade: r.from_grade,
      toGrade: r.to_grade,
      overridePct: toNonNegative(r.override_pct, 'override_pct'),
      capAmount: r.cap_amount === null ? null : toNonNegative(r.cap_amount, 'cap_amount'),
      insuranceTypeCond: r.insurance_type_cond,
      effectiveFrom: r.effective_from,
      effectiveTo: r.effective_to,
      version: r.version,
    }));
    const orgNodes = orgs.map((o) => ({ orgId: o.org_id, parentOrgId: o.parent_org_id }));
    // an agent outside the month's employment window is never a receiver (the index takes ACTIVE agents only)
    const agents = [...pricing.agents.values()].map((a) =>
      notEmployed.has(a.agentId) ? { ...a, status: 'NOT_EMPLOYED_IN_MONTH' } : a,
    );
    // Two indexes, so that a conditioned rule never competes with a plain rule of the same grade pair.
    return {
      plain: buildOverrideIndex({
        orgs: orgNodes,
        agents,
        rules: ruleRows.filter((r) => !r.insuranceTypeCond),
      }),
      conditioned: buildOverrideIndex({
        orgs: orgNodes,
        agents,
        rules: ruleRows.filter((r) => r.insuranceTypeCond),
      }),
      conditionedTypes: new Set(ruleRows.flatMap((r) => (r.insuranceTypeCond ? [r.insuranceTypeCond] : []))),
    };
  });
}
