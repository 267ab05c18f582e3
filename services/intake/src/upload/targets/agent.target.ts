import { z } from 'zod';
import type { Insertable } from 'kysely';
import { TAX_TYPES, VAT_TYPES, type AgentTable } from '@csp/db';
import { cachedLookup, rejected, type ImportContext, type ImportTarget, type Prepared } from './target.js';
import { date, id, oneOf, text } from './cells.js';
import { activeGrades, activeOrgs } from './references.js';

// The patterns of AgentSaveReq (master-data agents).
const PHONE = { re: /^\d{2,3}-?\d{3,4}-?\d{4}$/, message: 'must be a phone number like 010-1234-5678' };
const EMAIL = { re: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: 'must be an e-mail address' };
const RESIDENT_NO = { re: /^\d{6}-?\d{7}$/, message: 'must be a resident number like 900101-1234567' };
const ACCOUNT_NO = { re: /^\d[\d-]{5,29}$/, message: 'must be an account number (digits and dashes)' };

const schema = z.object({
  agent_name: text(100, true),
  org_id: id(true),
  grade_id: id(true),
  license_no: text(30),
  phone: text(30, false, PHONE),
  email: text(200, false, EMAIL),
  bank_code: text(10),
  resident_no: text(20, false, RESIDENT_NO),
  account_no: text(30, false, ACCOUNT_NO),
  join_date: date(),
  tax_type: oneOf(TAX_TYPES, 'BUSINESS_INCOME'),
  business_no: text(20),
  vat_type: oneOf(VAT_TYPES, 'NONE'),
});
type Row = z.output<typeof schema>;
type Values = Insertable<AgentTable>;

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * agent (master-data, POST /api/agents): organization and grade must exist and be active; resident
 * and account numbers are stored encrypted; every new agent gets its JOIN history row.
 */
export const agentTarget: ImportTarget<Row, Values> = {
  table: 'agent',
  label: 'Agents',
  owner: 'master-data',
  permission: { menu: 'ORG_AGENT', perm: 'CREATE' },
  fields: [
    { field: 'agent_name', label: 'Agent name', type: 'STRING', required: true },
    {
      field: 'org_id',
      label: 'Organization ID',
      type: 'INTEGER',
      required: true,
      description: 'or LOOKUP:ORG_BY_NAME',
    },
    {
      field: 'grade_id',
      label: 'Grade ID',
      type: 'INTEGER',
      required: true,
      description: 'or LOOKUP:GRADE_BY_CODE',
    },
    { field: 'license_no', label: 'License number', type: 'STRING', required: false },
    { field: 'phone', label: 'Phone', type: 'STRING', required: false },
    { field: 'email', label: 'E-mail', type: 'STRING', required: false },
    { field: 'bank_code', label: 'Bank code', type: 'STRING', required: false },
    {
      field: 'resident_no',
      label: 'Resident number',
      type: 'STRING',
      required: false,
      description: 'stored encrypted',
    },
    {
      field: 'account_no',
      label: 'Account number',
      type: 'STRING',
      required: false,
      description: 'stored encrypted',
    },
    { field: 'join_date', label: 'Join date', type: 'DATE', required: false },
    {
      field: 'tax_type',
      label: 'Tax type',
      type: 'STRING',
      required: false,
      description: TAX_TYPES.join(', '),
    },
    { field: 'business_no', label: 'Business number', type: 'STRING', required: false },
    {
      field: 'vat_type',
      label: 'VAT type',
      type: 'STRING',
      required: false,
      description: VAT_TYPES.join(', '),
    },
  ],
  schema,
  open(ctx: ImportContext) {
    const orgs = new Map<number, boolean | undefined>();
    const grades = new Map<number, boolean | undefined>();
    return {
      async prepare(rows) {
        await cachedLookup(
          orgs,
          rows.map((r) => r.org_id),
          (m) => activeOrgs(ctx.db, m),
          undefined,
        );
        await cachedLookup(
          grades,
          rows.map((r) => r.grade_id),
          (m) => activeGrades(ctx.db, m),
          undefined,
        );
        return rows.map((r): Prepared<Values> => {
          const org = orgs.get(r.org_id);
          if (org === undefined) return rejected('org_id', `organization ${r.org_id} not found`);
          if (!org) return rejected('org_id', `organization ${r.org_id} is inactive`);
          const grade = grades.get(r.grade_id);
          if (grade === undefined) return rejected('grade_id', `grade ${r.grade_id} not found`);
          if (!grade) return rejected('grade_id', `grade ${r.grade_id} is inactive`);
          return {
            ok: true,
            values: {
              org_id: r.org_id,
              grade_id: r.grade_id,
              agent_name: r.agent_name,
              resident_no: r.resident_no ? ctx.cipher.encrypt(r.resident_no) : null,
              license_no: r.license_no ?? null,
              phone: r.phone ?? null,
              email: r.email ?? null,
              bank_code: r.bank_code ?? null,
              account_no: r.account_no ? ctx.cipher.encrypt(r.account_no) : null,
              status: 'ACTIVE',
              join_date: r.join_date ?? null,
              tax_type: r.tax_type,
              business_no: r.business_no ?? null,
              vat_type: r.vat_type,
              created_by: ctx.userId,
              updated_by: ctx.userId,
            },
          };
        });
      },
      async insert(trx, rows) {
        const agents = await trx
          .insertInto('agent')
          .values([...rows])
          .returning(['agent_id', 'org_id', 'grade_id', 'join_date'])
          .execute();
        await trx
          .insertInto('agent_org_history')
          .values(
            agents.map((a) => ({
              agent_id: a.agent_id,
              from_org_id: null,
              to_org_id: a.org_id,
              from_grade_id: null,
              to_grade_id: a.grade_id,
              change_type: 'JOIN' as const,
              change_date: a.join_date ?? today(),
              change_reason: 'spreadsheet import',
              created_by: ctx.userId,
            })),
          )
          .execute();
      },
    };
  },
};
