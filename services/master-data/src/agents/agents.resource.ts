import { sql } from 'kysely';
import { defineResource, f, zId } from '@csp/service-kit';
import { filters } from '../common/resource-helpers.js';
import { AGENT_STATUSES, ORG_CHANGE_TYPES, TAX_TYPES, VAT_TYPES } from '@csp/db';

/**
 * Agents (menu ORG_AGENT, /excel under EXPORT): list items are AgentResp of spec 2.2, the detail
 * adds the personal fields, all masked; resident and account numbers are stored encrypted. Writes
 * are workflows (history rows, "absent keeps the masked field"): agents.routes.ts. A big table
 * (10,000 agents): contractCount/totalAmt are computed for the rows of the page only.
 * Field order = export column order.
 */
export const agentResource = defineResource({
  name: 'Agent',
  path: '/api/agents',
  table: 'agent',
  alias: 'a',
  menu: 'ORG_AGENT',
  tags: ['Agent'],
  bigTable: true,
  baseQuery: (db) =>
    db
      .selectFrom('agent as a')
      .innerJoin('organization as o', 'o.org_id', 'a.org_id')
      .innerJoin('grade as g', 'g.grade_id', 'a.grade_id'),
  fields: {
    agentId: f.id().label('Agent ID'),
    agentName: f.text({ max: 100 }).required().sort().search().label('Name').export({ width: 20 }),
    orgName: f.joined('o.org_name', 'text').nullable(false).sort().label('Organization').export({ width: 25 }),
    gradeName: f.joined('g.grade_name', 'text').nullable(false).sort('g.grade_level').label('Grade').export({ width: 20 }),
    statusName: f.codeName('AGENT_STATUS', 'status').label('Status'),
    phone: f.phone().save().search().masked('phone').label('Phone'),
    email: f.email().save().masked('email').detailOnly().label('E-mail').export({ width: 25 }),
    licenseNo: f.text({ max: 30 }).save().sort().search().filter().label('License no'),
    joinDate: f.date().save().sort().label('Join date'),
    leaveDate: f.date().detailOnly().label('Leave date'),
    contractCount: f.computed(sql`(SELECT count(*)::int FROM contract c WHERE c.agent_id = a.agent_id)`, 'int').nullable(false).sort().label('Contracts'),
    totalAmt: f
      .computed(sql`(SELECT coalesce(sum(c.premium), 0) FROM contract c WHERE c.agent_id = a.agent_id)`, 'money')
      .nullable(false)
      .sort()
      .label('Total premium'),
    taxTypeName: f.codeName('TAX_TYPE', 'taxType').label('Tax type'),
    vatTypeName: f.codeName('VAT_TYPE', 'vatType').label('VAT type'),
    businessNo: f.text({ max: 20 }).save().detailOnly().label('Business no'),
    bankCode: f.text({ max: 10 }).save().detailOnly().label('Bank'),
    accountNo: f
      .text({ pattern: /^\d[\d-]{5,29}$/, patternMessage: 'must be an account number (digits and dashes)' })
      .save()
      .encrypted()
      .masked('accountNo')
      .detailOnly()
      .label('Account no'),
    residentNo: f
      .text({ pattern: /^\d{6}-?\d{7}$/, patternMessage: 'must be a resident number like 900101-1234567' })
      .save()
      .encrypted()
      .masked('residentNo')
      .detailOnly()
      .label('Resident no'),
    // orgId filters the organization and everything below it (filters.apply)
    orgId: f.ref().required().export(false),
    gradeId: f.ref().required().filter().export(false),
    status: f.enum(AGENT_STATUSES).nullable(false).sort().filter().export(false),
    taxType: f.enum(TAX_TYPES).save({ default: 'BUSINESS_INCOME' }).detailOnly().export(false),
    vatType: f.enum(VAT_TYPES).save({ default: 'NONE' }).detailOnly().export(false),
  },
  defaultSort: 'agentId',
  dateFilter: 'joinDate',
  create: false,
  update: false,
  delete: false,
  export: 'EXPORT',
  filters: filters({
    shape: { orgId: zId.optional() },
    apply: (qb, q) =>
      q.orgId === undefined
        ? qb
        : qb.where(
            'a.org_id',
            'in',
            sql<number>`(WITH RECURSIVE t AS (
              SELECT org_id FROM organization WHERE org_id = ${q.orgId}
              UNION ALL
              SELECT x.org_id FROM organization x JOIN t ON x.parent_org_id = t.org_id
            ) SELECT org_id FROM t)`,
          ),
  }),
});

/** Organization/grade history of one agent (read through GET /api/agents/{id}/history, not registered). */
export const agentHistoryResource = defineResource({
  name: 'AgentOrgHistory',
  path: '/api/agents/:id/history',
  table: 'agent_org_history',
  alias: 'h',
  menu: 'ORG_AGENT',
  baseQuery: (db) =>
    db
      .selectFrom('agent_org_history as h')
      .innerJoin('agent as a', 'a.agent_id', 'h.agent_id')
      .leftJoin('organization as fo', 'fo.org_id', 'h.from_org_id')
      .leftJoin('organization as tor', 'tor.org_id', 'h.to_org_id')
      .leftJoin('grade as fg', 'fg.grade_id', 'h.from_grade_id')
      .leftJoin('grade as tg', 'tg.grade_id', 'h.to_grade_id'),
  fields: {
    historyId: f.id(),
    agentId: f.ref().nullable(false),
    agentName: f.joined('a.agent_name', 'text').nullable(false),
    fromOrgId: f.ref(),
    fromOrgName: f.joined('fo.org_name', 'text'),
    toOrgId: f.ref(),
    toOrgName: f.joined('tor.org_name', 'text'),
    fromGradeId: f.ref(),
    fromGradeName: f.joined('fg.grade_name', 'text'),
    toGradeId: f.ref(),
    toGradeName: f.joined('tg.grade_name', 'text'),
    changeType: f.enum(ORG_CHANGE_TYPES).nullable(false),
    changeTypeName: f.codeName('CHANGE_TYPE', 'changeType'),
    changeDate: f.date().nullable(false),
    changeReason: f.text(),
  },
  create: false,
  update: false,
  delete: false,
});
