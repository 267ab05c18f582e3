import type { CopyValue } from '@csp/db';
import { personName, phoneNumber } from './names.js';
import type { Prng } from './prng.js';

/** Seeded grades of V010: FC 1, SFC 2, TM_LEADER 3, BR_MANAGER 4, HQ_DIRECTOR 5, EXEC 6. */
export const GRADE = { FC: 1, SFC: 2, TM_LEADER: 3, BR_MANAGER: 4, HQ_DIRECTOR: 5, EXEC: 6 } as const;
const ALL_GRADES = [1, 2, 3, 4, 5, 6];

/**
 * The seeded grades in Korean words for the demo book (codes, ids and levels stay): V010 seeds them in English,
 * `seeded` is that name, so that a grade someone renamed keeps its name.
 */
export const GRADE_WORDS: ReadonlyArray<{ code: keyof typeof GRADE; seeded: string; name: string; description: string }> = [
  { code: 'FC', seeded: 'Financial Consultant', name: '설계사', description: '신입 영업 직급' },
  { code: 'SFC', seeded: 'Senior Financial Consultant', name: '수석 설계사', description: '선임 영업 직급' },
  { code: 'TM_LEADER', seeded: 'Team Manager', name: '팀장', description: '팀(TM 조직)을 이끄는 직급' },
  { code: 'BR_MANAGER', seeded: 'Branch Manager', name: '지점장', description: '지점(BR 조직)을 이끄는 직급' },
  { code: 'HQ_DIRECTOR', seeded: 'Headquarters Director', name: '본부장', description: '본부(HQ 조직)를 이끄는 직급' },
  { code: 'EXEC', seeded: 'Executive', name: '임원', description: '대리점 임원' },
];

export const INSURANCE_TYPES = ['LIFE', 'NON_LIFE', 'ANNUITY', 'SAVINGS', 'HEALTH', 'AUTO'] as const;
const PRODUCT_GROUP: Record<(typeof INSURANCE_TYPES)[number], string | null> = {
  LIFE: 'LIFE',
  NON_LIFE: null,
  ANNUITY: 'ANNUITY',
  SAVINGS: 'SAVINGS',
  HEALTH: 'EXCLUDED_HEALTH',
  AUTO: 'EXCLUDED_AUTO',
};
const RULES_FROM = '2000-01-01';

// Hangul names of a (made-up) Korean agency and its carriers: no real company is meant.
const BRANCHES = ['강남', '서초', '종로', '마포', '송파', '영등포', '분당', '일산', '수원', '인천'];
const branchName = (b: number): string =>
  `${BRANCHES[b % BRANCHES.length]}${b >= BRANCHES.length ? Math.floor(b / BRANCHES.length) + 1 : ''}지점`;
const CARRIERS = ['한빛', '누리', '다온', '새봄', '가람', '온누리', '해솔'];
const companyName = (c: number, life: boolean): string =>
  `${CARRIERS[c % CARRIERS.length]}${c >= CARRIERS.length ? Math.floor(c / CARRIERS.length) + 1 : ''}${life ? '생명' : '손해보험'}`;
const PRODUCT_KIND: Record<(typeof INSURANCE_TYPES)[number], string> = {
  LIFE: '종신보험',
  NON_LIFE: '상해보험',
  ANNUITY: '연금보험',
  SAVINGS: '저축보험',
  HEALTH: '건강보험',
  AUTO: '자동차보험',
};

export interface PlannedOrg {
  orgId: number;
  parentOrgId: number | null;
  name: string;
  type: 'HQ' | 'BR' | 'TM';
  level: number;
}

export interface PlannedAgent {
  agentId: number;
  orgId: number;
  gradeId: number;
  status: 'ACTIVE' | 'LEAVE';
  /** Index of the agent's team in `teams` (-1 for HQ/BR managers). */
  team: number;
}

export interface PlannedProduct {
  productId: number;
  companyId: number;
  companyCode: string;
  insuranceType: (typeof INSURANCE_TYPES)[number];
}

export interface IdBase {
  org: number;
  agent: number;
  company: number;
  product: number;
}

export interface StructurePlan {
  orgs: PlannedOrg[];
  teams: number[];
  agents: PlannedAgent[];
  /** agent indexes per team, for successors in the same team */
  agentsByTeam: number[][];
  companies: Array<{ companyId: number; code: string; name: string; type: string }>;
  products: PlannedProduct[];
}

/** The organization tree (1 HQ, ~N/200 BR, ~N/20 TM), agents, companies and products. */
export function planStructure(rng: Prng, agentCount: number, base: IdBase): StructurePlan {
  const branches = Math.max(1, Math.round(agentCount / 200));
  const teamCount = Math.max(1, Math.round(agentCount / 20));
  const orgs: PlannedOrg[] = [];
  let orgId = base.org;
  const hq = ++orgId;
  orgs.push({ orgId: hq, parentOrgId: null, name: '데모보험대리점 본사', type: 'HQ', level: 1 });
  const branchIds: number[] = [];
  for (let b = 0; b < branches; b++) {
    branchIds.push(++orgId);
    orgs.push({ orgId, parentOrgId: hq, name: branchName(b), type: 'BR', level: 2 });
  }
  const teams: number[] = [];
  for (let t = 0; t < teamCount; t++) {
    teams.push(++orgId);
    orgs.push({
      orgId,
      parentOrgId: branchIds[t % branches]!,
      name: `영업${t + 1}팀`,
      type: 'TM',
      level: 3,
    });
  }

  // Managers first (HQ director, branch managers, team leaders), then consultants spread over teams.
  const agents: PlannedAgent[] = [];
  const agentsByTeam: number[][] = teams.map(() => []);
  let agentId = base.agent;
  const add = (orgIdOf: number, gradeId: number, team: number, status: 'ACTIVE' | 'LEAVE' = 'ACTIVE') => {
    if (agents.length >= agentCount) return;
    agents.push({ agentId: ++agentId, orgId: orgIdOf, gradeId, status, team });
    if (team >= 0) agentsByTeam[team]!.push(agents.length - 1);
  };
  add(hq, GRADE.HQ_DIRECTOR, -1);
  for (const br of branchIds) add(br, GRADE.BR_MANAGER, -1);
  teams.forEach((tm, t) => add(tm, GRADE.TM_LEADER, t));
  while (agents.length < agentCount) {
    const t = rng.int(0, teamCount - 1);
    add(teams[t]!, rng.chance(0.3) ? GRADE.SFC : GRADE.FC, t, rng.chance(0.01) ? 'LEAVE' : 'ACTIVE');
  }

  const companyCount = rng.int(3, 5);
  const companies: StructurePlan['companies'] = [];
  const products: PlannedProduct[] = [];
  let productId = base.product;
  for (let c = 0; c < companyCount; c++) {
    const companyId = base.company + c + 1;
    const life = c % 2 === 0;
    const code = `DC${String(companyId).padStart(3, '0')}`;
    companies.push({
      companyId,
      code,
      name: companyName(c, life),
      type: life ? 'LIFE' : 'NON_LIFE',
    });
    const types = life
      ? (['LIFE', 'ANNUITY', 'SAVINGS', 'HEALTH'] as const)
      : (['NON_LIFE', 'HEALTH', 'AUTO', 'LIFE'] as const);
    const count = rng.int(4, 7);
    for (let p = 0; p < count; p++) {
      products.push({
        productId: ++productId,
        companyId,
        companyCode: code,
        insuranceType: types[p % types.length]!,
      });
    }
  }
  return { orgs, teams, agents, agentsByTeam, companies, products };
}

// ---- rows of the small tables -----------------------------------------------------------------

export function orgRows(plan: StructurePlan): CopyValue[][] {
  return plan.orgs.map((o) => [o.orgId, o.parentOrgId, o.name, o.type, o.level, 'Seoul', RULES_FROM, true]);
}
export const ORG_COLUMNS = [
  'org_id',
  'parent_org_id',
  'org_name',
  'org_type',
  'org_level',
  'region',
  'effective_from',
  'is_active',
];

export function agentRows(
  rng: Prng,
  plan: StructurePlan,
  joinDate: string,
  leaveDate: string,
): CopyValue[][] {
  return plan.agents.map((a) => [
    a.agentId,
    a.orgId,
    a.gradeId,
    personName(rng),
    `LIC${String(a.agentId).padStart(8, '0')}`,
    phoneNumber(rng),
    a.status,
    joinDate,
    a.status === 'LEAVE' ? leaveDate : null,
    'BUSINESS_INCOME',
    'NONE',
  ]);
}
export const AGENT_COLUMNS = [
  'agent_id',
  'org_id',
  'grade_id',
  'agent_name',
  'license_no',
  'phone',
  'status',
  'join_date',
  'leave_date',
  'tax_type',
  'vat_type',
];

export function companyRows(plan: StructurePlan): CopyValue[][] {
  return plan.companies.map((c) => [c.companyId, c.code, c.name, c.type, true]);
}
export const COMPANY_COLUMNS = ['company_id', 'company_code', 'company_name', 'company_type', 'is_active'];

export function productRows(plan: StructurePlan): CopyValue[][] {
  return plan.products.map((p, i) => [
    p.productId,
    p.companyId,
    `${p.companyCode}-P${i + 1}`,
    `${plan.companies.find((c) => c.companyId === p.companyId)!.name.replace(/(생명|손해보험)$/, '')} ${PRODUCT_KIND[p.insuranceType]} ${i + 1}호`,
    p.insuranceType,
    PRODUCT_GROUP[p.insuranceType],
    'YEAR',
    true,
    RULES_FROM,
  ]);
}
export const PRODUCT_COLUMNS = [
  'product_id',
  'company_id',
  'product_code',
  'product_name',
  'insurance_type',
  'product_group',
  'pay_period_type',
  'is_active',
  'launch_date',
];

/** Company rate per product and commission year 1..5 (year 1 high, maintain years low). */
export function commissionRateRows(rng: Prng, plan: StructurePlan): CopyValue[][] {
  const ranges: Array<[number, number]> = [
    [3000, 8000],
    [800, 1500],
    [500, 1000],
    [300, 800],
    [200, 500],
  ];
  const rows: CopyValue[][] = [];
  for (const p of plan.products) {
    ranges.forEach(([lo, hi], y) =>
      rows.push([p.productId, y + 1, (rng.int(lo, hi) / 100).toFixed(2), RULES_FROM, 1]),
    );
  }
  return rows;
}
export const COMMISSION_RATE_COLUMNS = [
  'product_id',
  'commission_year',
  'rate_pct',
  'effective_from',
  'version',
];

/** Payout per grade, insurance type and year: higher grades keep a larger share. */
export function payoutRuleRows(rng: Prng): CopyValue[][] {
  const rows: CopyValue[][] = [];
  for (const grade of ALL_GRADES) {
    for (const type of INSURANCE_TYPES) {
      for (let year = 1; year <= 5; year++) {
        rows.push([grade, type, year, (45 + grade * 5 + rng.int(0, 100) / 10).toFixed(1), RULES_FROM, 1]);
      }
    }
  }
  return rows;
}
export const PAYOUT_RULE_COLUMNS = [
  'grade_id',
  'insurance_type',
  'commission_year',
  'payout_pct',
  'effective_from',
  'version',
];

/** Overrides up the tree; the manager levels are capped. */
export function overrideRuleRows(): CopyValue[][] {
  return [
    [GRADE.FC, GRADE.TM_LEADER, '5.0000', null, RULES_FROM],
    [GRADE.SFC, GRADE.TM_LEADER, '4.0000', null, RULES_FROM],
    [GRADE.FC, GRADE.BR_MANAGER, '1.5000', '50000.00', RULES_FROM],
    [GRADE.TM_LEADER, GRADE.BR_MANAGER, '3.0000', '300000.00', RULES_FROM],
    [GRADE.BR_MANAGER, GRADE.HQ_DIRECTOR, '2.0000', '200000.00', RULES_FROM],
  ];
}
export const OVERRIDE_RULE_COLUMNS = [
  'from_grade',
  'to_grade',
  'override_pct',
  'cap_amount',
  'effective_from',
];

/** Per company and insurance type: full chargeback in year 1 (in 3 installments for some), half in year 2, 20 % after. */
export function chargebackRuleRows(rng: Prng, plan: StructurePlan): CopyValue[][] {
  const rows: CopyValue[][] = [];
  for (const c of plan.companies) {
    const types = new Set(
      plan.products.filter((p) => p.companyId === c.companyId).map((p) => p.insuranceType),
    );
    for (const type of types) {
      const installments = rng.chance(0.5);
      rows.push([c.code, type, 0, 12, '100.0000', false, installments, installments ? 3 : 1, RULES_FROM, 1]);
      rows.push([c.code, type, 13, 24, '50.0000', false, false, 1, RULES_FROM, 1]);
      rows.push([c.code, type, 25, null, '20.0000', false, false, 1, RULES_FROM, 1]);
    }
  }
  return rows;
}
export const CHARGEBACK_RULE_COLUMNS = [
  'company_code',
  'insurance_type',
  'lapse_month_from',
  'lapse_month_to',
  'cb_rate',
  'include_override',
  'installment_allowed',
  'max_installments',
  'effective_from',
  'version',
];
