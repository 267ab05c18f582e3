import { sql } from 'kysely';
import { defineResource, f, zId } from '@csp/service-kit';
import { agentFields } from '@csp/field-tables';
import { filters } from '../common/resource-helpers.js';
import { ORG_CHANGE_TYPES } from '@csp/db';

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
  fields: agentFields,
  defaultSort: 'agentId',
  dateFilter: 'joinDate',
  create: false,
  update: false,
  // the hand-written update is a PATCH: absent fields keep their value (agentUpdateReq, toUpdate)
  partialUpdate: true,
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
