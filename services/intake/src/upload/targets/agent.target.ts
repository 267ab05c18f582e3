import type { Insertable } from 'kysely';
import { TAX_TYPES, VAT_TYPES, type AgentTable } from '@csp/db';
import { agentFields } from '@csp/field-tables';
import {
  cachedLookup,
  rejected,
  type ImportContext,
  type ImportTarget,
  type Prepared,
  type TargetField,
} from './target.js';
import { ownerRowSchema, type OwnerRow, type SaveBody } from './owner-body.js';
import { ownerColumns } from './owner-columns.js';
import { activeGrades, activeOrgs } from './references.js';

/** AgentSaveReq of spec 2.2: the save body of master-data's agent resource. */
type Body = SaveBody<
  typeof agentFields,
  'agentName' | 'orgId' | 'gradeId' | 'taxType' | 'vatType',
  'licenseNo' | 'phone' | 'email' | 'bankCode' | 'residentNo' | 'accountNo' | 'joinDate' | 'businessNo'
>;
type Row = OwnerRow<Body, Record<never, never>>;
type Values = Insertable<AgentTable>;

const FIELDS: TargetField[] = [
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
];

const OWNER_BODY = {
  owner: { name: 'Agent', path: '/api/agents', table: 'agent', menu: 'ORG_AGENT', fields: agentFields },
  fields: FIELDS.map((f) => f.field),
};
const rowSchema = ownerRowSchema<Body>(OWNER_BODY);
const toColumns = ownerColumns<Body, Values>(OWNER_BODY);

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * agent (master-data, POST /api/agents): each row is checked by the owner's save schema
 * (@csp/field-tables agentFields); organization and grade must exist and be active; the fields the
 * field table marks encrypted (resident and account numbers) are stored encrypted; every new agent
 * gets its JOIN history row.
 */
export const agentTarget: ImportTarget<Row, Values> = {
  table: 'agent',
  label: 'Agents',
  owner: 'master-data',
  permission: { menu: 'ORG_AGENT', perm: 'CREATE' },
  fields: FIELDS,
  rowSchema,
  open(ctx: ImportContext) {
    const orgs = new Map<number, boolean | undefined>();
    const grades = new Map<number, boolean | undefined>();
    return {
      async prepare(rows) {
        await cachedLookup(
          orgs,
          rows.map((r) => r.body.orgId),
          (m) => activeOrgs(ctx.db, m),
          undefined,
        );
        await cachedLookup(
          grades,
          rows.map((r) => r.body.gradeId),
          (m) => activeGrades(ctx.db, m),
          undefined,
        );
        return rows.map(({ body: b }): Prepared<Values> => {
          const org = orgs.get(b.orgId);
          if (org === undefined) return rejected('org_id', `organization ${b.orgId} not found`);
          if (!org) return rejected('org_id', `organization ${b.orgId} is inactive`);
          const grade = grades.get(b.gradeId);
          if (grade === undefined) return rejected('grade_id', `grade ${b.gradeId} not found`);
          if (!grade) return rejected('grade_id', `grade ${b.gradeId} is inactive`);
          return {
            ok: true,
            values: toColumns(b, ctx.cipher, {
              status: 'ACTIVE',
              created_by: ctx.userId,
              updated_by: ctx.userId,
            }),
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
