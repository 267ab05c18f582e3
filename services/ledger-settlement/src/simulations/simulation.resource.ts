import { SIMULATION_SCOPES, SIMULATION_STATUSES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import { sql } from 'kysely';
import { z } from 'zod';

export const MENU_SIMULATION = 'SIMULATION';

const STATUS_NAMES: Record<(typeof SIMULATION_STATUSES)[number], string> = {
  DRAFT: 'Draft',
  QUEUED: 'Queued',
  RUNNING: 'Running',
  DONE: 'Done',
  FAILED: 'Failed',
  ADOPTION_PENDING: 'Adoption pending',
  ADOPTED: 'Adopted',
};

const statusName = sql`CASE s.status ${sql.join(
  Object.entries(STATUS_NAMES).map(([code, name]) => sql`WHEN ${sql.lit(code)} THEN ${sql.lit(name)}`),
  sql` `,
)} END`;

/**
 * What-if simulations (SIMULATION, issue 26): list and detail through the field table; creating, editing,
 * running and the results are workflow routes (simulation.routes.ts). docs/simulation-api.md is the contract.
 */
export const simulationResource = defineResource({
  name: 'Simulation',
  path: '/api/simulations',
  table: 'simulation',
  alias: 's',
  menu: MENU_SIMULATION,
  tags: ['Simulations'],
  create: false,
  update: false,
  delete: false,
  detail: false,
  baseQuery: (db) =>
    db
      .selectFrom('simulation as s')
      .leftJoin('organization as o', 'o.org_id', 's.scope_org_id')
      .leftJoin('users as u', 'u.user_id', 's.created_by'),
  fields: {
    id: f.id().column('simulation_id').sort().label('시뮬레이션 번호', 'Simulation ID'),
    name: f.text({ min: 1, max: 100 }).required().sort().search().filter('like').label('이름', 'Name'),
    baseMonth: f.month().required().sort().filter().label('기준월', 'Base month'),
    scopeType: f.enum(SIMULATION_SCOPES).required().filter().label('대상', 'Scope'),
    scopeOrgId: f.ref().label('대상 조직', 'Scope organization ID'),
    scopeOrgName: f.joined('o.org_name', 'text').label('대상 조직명', 'Scope organization'),
    scopeAgentIds: f
      .computed(sql`to_jsonb(s.scope_agent_ids)`, 'json', z.array(z.number().int()))
      .label('대상 설계사', 'Scope agents')
      .export(false),
    status: f.enum(SIMULATION_STATUSES).nullable(false).filter().sort().label('상태', 'Status'),
    statusName: f.computed(statusName, 'text').label('상태명', 'Status name').export(false),
    processed: f.int().nullable(false).label('처리 건수', 'Processed'),
    total: f.int().nullable(false).label('전체 건수', 'Total'),
    etaSeconds: f.int().label('남은 시간(초)', 'ETA (s)'),
    errorMessage: f.text().label('오류', 'Error'),
    // the decided request (kept on the row), else the open one auth-platform started from APPROVAL_REQUESTED
    approvalId: f
      .computed(
        sql`coalesce(s.approval_id, (SELECT max(r.request_id) FROM approval_request r
          WHERE r.target_type = 'SIMULATION' AND r.target_id = s.simulation_id AND r.status = 'PENDING'))`,
        'int',
      )
      .label('결재 번호', 'Approval ID'),
    createdBy: f.createdBy().label('작성자', 'Created by'),
    createdByName: f.joined('u.user_name', 'text').label('작성자명', 'Created by name'),
    createdAt: f.createdAt().sort().label('작성 일시', 'Created at'),
    startedAt: f.timestamp().label('시작 일시', 'Started at'),
    finishedAt: f.timestamp().label('완료 일시', 'Finished at'),
    changeCount: f
      .computed(sql`(SELECT count(*) FROM simulation_change c WHERE c.simulation_id = s.simulation_id)`, 'int')
      .label('변경 건수', 'Changes'),
    updatedAt: f.updatedAt().export(false),
  },
  statusField: 'status',
  defaultSort: '-id',
});
