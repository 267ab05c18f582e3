import type { StepContext } from '@csp/batch';
import type { Db } from '@csp/db';
import {
  buildSuccessionIndex,
  formatRate,
  toNonNegative,
  type CommissionRateRow,
  type Dec,
  type PayoutRuleRow,
  type SuccessionIndex,
  type SuccessionRow,
} from '@csp/domain';
import { perRun } from './run-cache.js';
import { loadSettlementConfig, type SettlementConfig } from './system-config.js';

export interface AgentInfo {
  agentId: number;
  orgId: number;
  gradeId: number;
  status: string;
}

export interface ProductInfo {
  productId: number;
  productCode: string;
  companyCode: string;
  insuranceType: string;
}

export interface RateRow extends CommissionRateRow {
  rateId: number;
  version: number;
  ratePct: Dec;
  /** formatted once per run: the rate as written to the ledger and its calc_basis entry */
  ratePctText: string;
  /** calc_basis entry: id + version identify the rule row, the explain API adds its validity from there */
  basis: { rateId: number; version: number; ratePct: string };
}

export interface PayoutRow extends PayoutRuleRow {
  ruleId: number;
  version: number;
  payoutPct: Dec;
  payoutPctText: string;
  basis: { ruleId: number; version: number; payoutPct: string };
}

/** What calcRecruit/calcMaintain need besides the contracts, loaded once per run. */
export interface Pricing {
  config: SettlementConfig;
  agents: ReadonlyMap<number, AgentInfo>;
  products: ReadonlyMap<number, ProductInfo>;
  ratesByProduct: ReadonlyMap<number, readonly RateRow[]>;
  payoutsByGradeType: ReadonlyMap<string, readonly PayoutRow[]>;
}

export function payoutKey(gradeId: number, insuranceType: string): string {
  return `${gradeId}|${insuranceType}`;
}

function group<K, V>(rows: readonly V[], key: (row: V) => K): Map<K, V[]> {
  const map = new Map<K, V[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

export async function loadAgents(db: Db): Promise<Map<number, AgentInfo>> {
  const rows = await db.selectFrom('agent').select(['agent_id', 'org_id', 'grade_id', 'status']).execute();
  return new Map(
    rows.map((r) => [
      r.agent_id,
      { agentId: r.agent_id, orgId: r.org_id, gradeId: r.grade_id, status: r.status },
    ]),
  );
}

async function loadPricing(db: Db): Promise<Pricing> {
  const [config, agents, products, rates, payouts] = await Promise.all([
    loadSettlementConfig(db),
    loadAgents(db),
    db
      .selectFrom('product as p')
      .innerJoin('insurance_company as c', 'c.company_id', 'p.company_id')
      .select(['p.product_id', 'p.product_code', 'p.insurance_type', 'c.company_code'])
      .execute(),
    db
      .selectFrom('commission_rate')
      .select([
        'rate_id',
        'product_id',
        'commission_year',
        'rate_pct',
        'pay_method_cond',
        'min_premium',
        'effective_from',
        'effective_to',
        'version',
      ])
      .execute(),
    db
      .selectFrom('payout_rule')
      .select([
        'rule_id',
        'grade_id',
        'insurance_type',
        'commission_year',
        'payout_pct',
        'pay_method_cond',
        'effective_from',
        'effective_to',
        'version',
      ])
      .execute(),
  ]);
  const rateRows: RateRow[] = rates.map((r) => {
    const ratePct = toNonNegative(r.rate_pct, 'rate_pct');
    const ratePctText = formatRate(ratePct);
    return {
      rateId: r.rate_id,
      productId: r.product_id,
      commissionYear: r.commission_year,
      ratePct,
      ratePctText,
      payMethodCond: r.pay_method_cond,
      minPremium: r.min_premium === null ? null : toNonNegative(r.min_premium, 'min_premium'),
      effectiveFrom: r.effective_from,
      effectiveTo: r.effective_to,
      version: r.version,
      basis: {
        rateId: r.rate_id,
        version: r.version,
        ratePct: ratePctText,
      },
    };
  });
  const payoutRows: PayoutRow[] = payouts.map((r) => {
    const payoutPct = toNonNegative(r.payout_pct, 'payout_pct');
    const payoutPctText = formatRate(payoutPct);
    return {
      ruleId: r.rule_id,
      gradeId: r.grade_id,
      insuranceType: r.insurance_type,
      commissionYear: r.commission_year,
      payoutPct,
      payoutPctText,
      payMethodCond: r.pay_method_cond,
      effectiveFrom: r.effective_from,
      effectiveTo: r.effective_to,
      version: r.version,
      basis: {
        ruleId: r.rule_id,
        version: r.version,
        payoutPct: payoutPctText,
      },
    };
  });
  return {
    config,
    agents,
    products: new Map(
      products.map((p) => [
        p.product_id,
        {
          productId: p.product_id,
          productCode: p.product_code,
          companyCode: p.company_code,
          insuranceType: p.insurance_type,
        },
      ]),
    ),
    ratesByProduct: group(rateRows, (r) => r.productId),
    payoutsByGradeType: group(payoutRows, (r) => payoutKey(r.gradeId, r.insuranceType)),
  };
}

export function pricingOf(ctx: StepContext): Promise<Pricing> {
  return perRun(ctx, 'pricing', () => loadPricing(ctx.db));
}

/** Step 5: every ACTIVE succession effective up to the settle month, indexed by contract. */
export function successionsOf(ctx: StepContext): Promise<SuccessionIndex<SuccessionRow>> {
  return perRun(ctx, 'successions', async () => {
    const rows = await ctx.db
      .selectFrom('contract_succession')
      .select(['succession_id', 'contract_id', 'from_agent_id', 'to_agent_id', 'effective_month', 'status'])
      .where('status', '=', 'ACTIVE')
      .where('effective_month', '<=', ctx.settleMonth)
      .execute();
    return buildSuccessionIndex(
      rows.map((r) => ({
        successionId: r.succession_id,
        contractId: r.contract_id,
        fromAgentId: r.from_agent_id,
        toAgentId: r.to_agent_id,
        effectiveMonth: r.effective_month,
        status: r.status,
      })),
    );
  });
}
