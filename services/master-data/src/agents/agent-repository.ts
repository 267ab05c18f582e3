import { sql } from 'kysely';
import type { MdExecutor } from '../people-db.js';
import { escapeLike } from '../orgs/org-repository.js';
import type { AgentListQuery } from './agent-schemas.js';

/** One agent with display names, code names and contract figures; personal fields still ciphertext. */
export interface AgentRow {
  agent_id: number;
  org_id: number;
  grade_id: number;
  agent_name: string;
  status: 'ACTIVE' | 'LEAVE' | 'SUSPEND';
  status_name: string | null;
  org_name: string;
  grade_name: string;
  contract_count: number;
  total_amt: string;
  phone: string | null;
  license_no: string | null;
  join_date: string | null;
  tax_type: 'BUSINESS_INCOME' | 'OTHER_INCOME';
  tax_type_name: string | null;
  vat_type: 'NONE' | 'EXEMPT' | 'TAXABLE';
  vat_type_name: string | null;
  email: string | null;
  bank_code: string | null;
  account_no: string | null;
  resident_no: string | null;
  business_no: string | null;
  leave_date: string | null;
}

/**
 * Agents joined with organization, grade, the code names of AGENT_STATUS, TAX_TYPE and VAT_TYPE,
 * and (lateral) the count and premium sum of the contracts they recruited, all statuses.
 */
export function agentSelect(db: MdExecutor) {
  return db
    .selectFrom('agent as a')
    .innerJoin('organization as o', 'o.org_id', 'a.org_id')
    .innerJoin('grade as g', 'g.grade_id', 'a.grade_id')
    .leftJoin('common_code as st', (j) => j.onRef('st.code', '=', 'a.status').on('st.group_code', '=', 'AGENT_STATUS'))
    .leftJoin('common_code as tt', (j) => j.onRef('tt.code', '=', 'a.tax_type').on('tt.group_code', '=', 'TAX_TYPE'))
    .leftJoin('common_code as vt', (j) => j.onRef('vt.code', '=', 'a.vat_type').on('vt.group_code', '=', 'VAT_TYPE'))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('contract as c')
          .select([sql<number>`count(*)::int`.as('contract_count'), sql<string>`coalesce(sum(c.premium), 0)`.as('total_amt')])
          .whereRef('c.agent_id', '=', 'a.agent_id')
          .as('cs'),
      (j) => j.onTrue(),
    )
    .select([
      'a.agent_id',
      'a.org_id',
      'a.grade_id',
      'a.agent_name',
      'a.status',
      'st.code_name as status_name',
      'o.org_name',
      'g.grade_name',
      'cs.contract_count',
      'cs.total_amt',
      'a.phone',
      'a.license_no',
      'a.join_date',
      'a.tax_type',
      'tt.code_name as tax_type_name',
      'a.vat_type',
      'vt.code_name as vat_type_name',
      'a.email',
      'a.bank_code',
      'a.account_no',
      'a.resident_no',
      'a.business_no',
      'a.leave_date',
    ]);
}

export type AgentQuery = ReturnType<typeof agentSelect>;

const SEARCH_COLUMNS = { agentName: 'a.agent_name', licenseNo: 'a.license_no', phone: 'a.phone' } as const;

export function applyAgentFilters(qb: AgentQuery, f: Omit<AgentListQuery, 'pageNum' | 'pageSize'>): AgentQuery {
  let q = qb;
  const keyword = f.searchKeyword?.trim();
  if (keyword) {
    const pattern = `%${escapeLike(keyword)}%`;
    const columns = f.searchType ? [SEARCH_COLUMNS[f.searchType]] : Object.values(SEARCH_COLUMNS);
    q = q.where((eb) => eb.or(columns.map((c) => eb(c, 'ilike', pattern))));
  }
  if (f.orgId !== undefined) {
    const orgId = f.orgId;
    q = q.where(
      'a.org_id',
      'in',
      sql<number>`(WITH RECURSIVE t AS (
        SELECT org_id FROM organization WHERE org_id = ${orgId}
        UNION ALL
        SELECT x.org_id FROM organization x JOIN t ON x.parent_org_id = t.org_id
      ) SELECT org_id FROM t)`,
    );
  }
  if (f.gradeId !== undefined) q = q.where('a.grade_id', '=', f.gradeId);
  if (f.licenseNo) q = q.where('a.license_no', '=', f.licenseNo);
  if (f.status) q = q.where('a.status', '=', f.status);
  if (f.startDate) q = q.where('a.join_date', '>=', f.startDate);
  if (f.endDate) q = q.where('a.join_date', '<=', f.endDate);
  return q;
}

export async function findAgent(db: MdExecutor, agentId: number): Promise<AgentRow | undefined> {
  return (await agentSelect(db).where('a.agent_id', '=', agentId).executeTakeFirst()) as AgentRow | undefined;
}

export interface HistoryInsert {
  agent_id: number;
  from_org_id: number | null;
  to_org_id: number | null;
  from_grade_id: number | null;
  to_grade_id: number | null;
  change_type: 'TRANSFER' | 'PROMOTE' | 'DEMOTE' | 'JOIN' | 'LEAVE';
  change_date: string;
  change_reason: string | null;
  created_by: number | null;
}

export async function insertHistory(db: MdExecutor, row: HistoryInsert) {
  return db.insertInto('agent_org_history').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listHistory(db: MdExecutor, agentId: number) {
  return db
    .selectFrom('agent_org_history as h')
    .innerJoin('agent as a', 'a.agent_id', 'h.agent_id')
    .leftJoin('organization as fo', 'fo.org_id', 'h.from_org_id')
    .leftJoin('organization as tor', 'tor.org_id', 'h.to_org_id')
    .leftJoin('grade as fg', 'fg.grade_id', 'h.from_grade_id')
    .leftJoin('grade as tg', 'tg.grade_id', 'h.to_grade_id')
    .leftJoin('common_code as ct', (j) => j.onRef('ct.code', '=', 'h.change_type').on('ct.group_code', '=', 'CHANGE_TYPE'))
    .select([
      'h.history_id',
      'h.agent_id',
      'a.agent_name',
      'h.from_org_id',
      'fo.org_name as from_org_name',
      'h.to_org_id',
      'tor.org_name as to_org_name',
      'h.from_grade_id',
      'fg.grade_name as from_grade_name',
      'h.to_grade_id',
      'tg.grade_name as to_grade_name',
      'h.change_type',
      'ct.code_name as change_type_name',
      'h.change_date',
      'h.change_reason',
    ])
    .where('h.agent_id', '=', agentId)
    .orderBy('h.change_date')
    .orderBy('h.history_id')
    .execute();
}

/** An organization or grade that agents may be assigned to (exists and is active). */
export async function activeOrg(db: MdExecutor, orgId: number) {
  return db.selectFrom('organization').select(['org_id', 'is_active']).where('org_id', '=', orgId).executeTakeFirst();
}

export async function gradeById(db: MdExecutor, gradeId: number) {
  return db.selectFrom('grade').select(['grade_id', 'grade_level', 'is_active']).where('grade_id', '=', gradeId).executeTakeFirst();
}
