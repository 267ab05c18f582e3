import { api } from '../../api/client.js';
import { unwrap } from '../../api/envelope.js';
import type { paths } from '../../api/schema';

type Row = Record<string, unknown>;
export type ReviseResult = paths['/api/rules/commission-rates/{id}/revise']['post']['responses'][200]['content']['application/json']['data'];
type CommissionRevise = NonNullable<paths['/api/rules/commission-rates/{id}/revise']['post']['requestBody']>['content']['application/json'];
type PayoutRevise = NonNullable<paths['/api/rules/payout/{id}/revise']['post']['requestBody']>['content']['application/json'];
type OverrideRevise = NonNullable<paths['/api/rules/override/{id}/revise']['post']['requestBody']>['content']['application/json'];
type ChargebackRevise = NonNullable<paths['/api/rules/chargeback/{id}/revise']['post']['requestBody']>['content']['application/json'];

/**
 * A versioned rule table (half-open validity, one row per version). `key` names the fields that
 * identify one rule across its versions; `values` what a version says; `revise`, when the server
 * has the endpoint, the fields a revision may change and the call.
 */
export interface RuleKind {
  menu: string;
  path: string;
  key: string[];
  values: string[];
  revise?: { fields: string[]; call(id: number, body: Row): Promise<ReviseResult> };
}

const text = (v: unknown) => (v === undefined || v === '' ? undefined : (v as string | null));

export const RULE_KINDS: RuleKind[] = [
  {
    menu: 'RULE_COMMISSION',
    path: '/api/rules/commission-rates',
    key: ['productId', 'commissionYear'],
    values: ['ratePct', 'payMethodCond', 'minPremium'],
    revise: {
      fields: ['ratePct', 'payMethodCond', 'minPremium'],
      call: async (id, b) => {
        const body: CommissionRevise = { effectiveFrom: String(b.effectiveFrom), ratePct: String(b.ratePct) };
        if (typeof b.version === 'number') body.version = b.version;
        if (text(b.payMethodCond) !== undefined) body.payMethodCond = text(b.payMethodCond)!;
        if (text(b.minPremium) !== undefined) body.minPremium = text(b.minPremium)!;
        return unwrap<ReviseResult>(await api.POST('/api/rules/commission-rates/{id}/revise', { params: { path: { id } }, body }));
      },
    },
  },
  {
    menu: 'RULE_PAYOUT',
    path: '/api/rules/payout',
    key: ['gradeId', 'insuranceType', 'commissionYear'],
    values: ['payoutPct', 'payMethodCond', 'performanceGrade'],
    revise: {
      fields: ['payoutPct', 'payMethodCond', 'performanceGrade'],
      call: async (id, b) => {
        const body: PayoutRevise = { effectiveFrom: String(b.effectiveFrom), payoutPct: String(b.payoutPct) };
        if (typeof b.version === 'number') body.version = b.version;
        if (text(b.payMethodCond) !== undefined) body.payMethodCond = text(b.payMethodCond)!;
        if (text(b.performanceGrade) !== undefined) body.performanceGrade = text(b.performanceGrade)!;
        return unwrap<ReviseResult>(await api.POST('/api/rules/payout/{id}/revise', { params: { path: { id } }, body }));
      },
    },
  },
  {
    menu: 'RULE_OVERRIDE',
    path: '/api/rules/override',
    key: ['fromGrade', 'toGrade', 'insuranceTypeCond'],
    values: ['overridePct', 'calcType', 'capAmount'],
    revise: {
      fields: ['overridePct', 'capAmount'],
      call: async (id, b) => {
        const body: OverrideRevise = { effectiveFrom: String(b.effectiveFrom), overridePct: String(b.overridePct) };
        if (typeof b.version === 'number') body.version = b.version;
        if (text(b.capAmount) !== undefined) body.capAmount = text(b.capAmount)!;
        return unwrap<ReviseResult>(await api.POST('/api/rules/override/{id}/revise', { params: { path: { id } }, body }));
      },
    },
  },
  {
    menu: 'RULE_CHARGEBACK',
    path: '/api/rules/chargeback',
    key: ['companyCode', 'insuranceType', 'lapseMonthFrom'],
    values: ['cbRate', 'lapseMonthTo', 'includeOverride', 'installmentAllowed', 'maxInstallments'],
    revise: {
      // the installment settings are checked together on update, so a revision changes the rate and override only
      fields: ['cbRate', 'includeOverride'],
      call: async (id, b) => {
        const body: ChargebackRevise = { effectiveFrom: String(b.effectiveFrom), cbRate: String(b.cbRate) };
        if (typeof b.version === 'number') body.version = b.version;
        if (typeof b.includeOverride === 'boolean') body.includeOverride = b.includeOverride;
        return unwrap<ReviseResult>(await api.POST('/api/rules/chargeback/{id}/revise', { params: { path: { id } }, body }));
      },
    },
  },
];

export function ruleKindOf(menu: string): RuleKind | undefined {
  return RULE_KINDS.find((k) => k.menu === menu);
}

/** The rows of one rule (same key values, NULL = NULL), oldest version first. */
export function versionsOf(kind: RuleKind, rows: Row[], of: Row): Row[] {
  const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null) || String(a) === String(b);
  return rows
    .filter((r) => kind.key.every((k) => same(r[k], of[k])))
    .sort((a, b) => String(a.effectiveFrom).localeCompare(String(b.effectiveFrom)) || Number(a.version ?? 0) - Number(b.version ?? 0));
}

export type Validity = 'current' | 'future' | 'ended';

/** Half-open validity on a day: effectiveFrom <= day < effectiveTo (no end = open). */
export function validityOn(row: Row, day: string): Validity {
  const from = String(row.effectiveFrom ?? '');
  const to = row.effectiveTo == null ? null : String(row.effectiveTo);
  if (from > day) return 'future';
  if (to !== null && to <= day) return 'ended';
  return 'current';
}
