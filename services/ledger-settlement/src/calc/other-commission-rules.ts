import type { StepContext } from '@csp/batch';
import type { Db } from '@csp/db';
import type {
  AppointmentRuleRow,
  CollectionRuleRow,
  OtherCommissionRules,
  OtherCommissionType,
  PersistencyRuleRow,
  RateRuleRow,
} from '@csp/domain';
import { sql } from 'kysely';
import { perRun } from './run-cache.js';

/** The rules of the five other commission types and which types the month computes. */
export interface OtherCommissionSetup {
  rules: OtherCommissionRules;
  /** Active (commission_type.is_active) types that have at least one rule row. */
  enabled: ReadonlySet<OtherCommissionType>;
  /** commission_type.is_active of INCENTIVE: an inactive type's programs are not calculated by the run. */
  incentiveActive: boolean;
  /** Smallest collection_rule.min_commission_year (the contract-date prefilter). */
  collectionMinYear: number;
  /** Largest appointment_rule.months (the join-date prefilter). */
  appointmentMaxMonths: number;
}

interface RuleColumns {
  rule_id: number;
  version: number;
  effective_from: string;
  effective_to: string | null;
}

const period = (r: RuleColumns) => ({
  ruleId: Number(r.rule_id),
  version: Number(r.version),
  effectiveFrom: r.effective_from,
  effectiveTo: r.effective_to,
});

async function loadRateRules(db: Db, table: 'renewal_rule' | 'reinstatement_rule'): Promise<RateRuleRow[]> {
  const { rows } = await sql<RuleColumns & { company_code: string; insurance_type: string; rate_pct: string }>`
    SELECT rule_id, version, effective_from, effective_to, company_code, insurance_type, rate_pct
    FROM ${sql.table(table)}`.execute(db);
  return rows.map((r) => ({ ...period(r), companyCode: r.company_code, insuranceType: r.insurance_type, ratePct: r.rate_pct }));
}

/** Reads the rule tables (small) and the type settings once. */
export async function loadOtherCommissionSetup(db: Db): Promise<OtherCommissionSetup> {
  const [types, collection, renewal, reinstatement, persistency, appointment] = await Promise.all([
    sql<{ type_code: string }>`SELECT type_code FROM commission_type WHERE is_active`.execute(db),
    sql<RuleColumns & { company_code: string; insurance_type: string; min_commission_year: number; rate_pct: string }>`
      SELECT rule_id, version, effective_from, effective_to, company_code, insurance_type, min_commission_year, rate_pct
      FROM collection_rule`.execute(db),
    loadRateRules(db, 'renewal_rule'),
    loadRateRules(db, 'reinstatement_rule'),
    sql<RuleColumns & { milestone_month: number; insurance_type: string; bonus_pct: string }>`
      SELECT rule_id, version, effective_from, effective_to, milestone_month, insurance_type, bonus_pct
      FROM persistency_rule`.execute(db),
    sql<RuleColumns & { grade_id: number; months: number; monthly_amount: string }>`
      SELECT rule_id, version, effective_from, effective_to, grade_id, months, monthly_amount
      FROM appointment_rule`.execute(db),
  ]);
  const rules: OtherCommissionRules = {
    collection: collection.rows.map(
      (r): CollectionRuleRow => ({
        ...period(r),
        companyCode: r.company_code,
        insuranceType: r.insurance_type,
        minCommissionYear: Number(r.min_commission_year),
        ratePct: r.rate_pct,
      }),
    ),
    renewal,
    reinstatement,
    persistency: persistency.rows.map(
      (r): PersistencyRuleRow => ({
        ...period(r),
        milestoneMonth: Number(r.milestone_month),
        insuranceType: r.insurance_type,
        bonusPct: r.bonus_pct,
      }),
    ),
    appointment: appointment.rows.map(
      (r): AppointmentRuleRow => ({
        ...period(r),
        gradeId: Number(r.grade_id),
        months: Number(r.months),
        monthlyAmount: r.monthly_amount,
      }),
    ),
  };
  const active = new Set(types.rows.map((r) => r.type_code));
  const withRules: Record<OtherCommissionType, number> = {
    COLLECTION: rules.collection.length,
    RENEWAL: rules.renewal.length,
    REINSTATEMENT: rules.reinstatement.length,
    PERSISTENCY: rules.persistency.length,
    APPOINTMENT: rules.appointment.length,
  };
  const enabled = new Set(
    (Object.keys(withRules) as OtherCommissionType[]).filter((t) => active.has(t) && withRules[t] > 0),
  );
  return {
    rules,
    enabled,
    incentiveActive: active.has('INCENTIVE'),
    collectionMinYear: Math.min(...rules.collection.map((r) => r.minCommissionYear), 6),
    appointmentMaxMonths: Math.max(...rules.appointment.map((r) => r.months), 1),
  };
}

export function otherCommissionSetupOf(ctx: StepContext): Promise<OtherCommissionSetup> {
  return perRun(ctx, 'other-commission-setup', () => loadOtherCommissionSetup(ctx.db));
}
