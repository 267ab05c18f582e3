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
    id: f.id().column('simulation_id').sort().label('Simulation ID'),
    name: f.text({ min: 1, max: 100 }).required().sort().search().filter('like').label('Name'),
    baseMonth: f.month().required().sort().filter().label('Base month'),
    scopeType: f.enum(SIMULATION_SCOPES).required().filter().label('Scope'),
    scopeOrgId: f.ref().label('Scope organization ID'),
    scopeOrgName: f.joined('o.org_name', 'text').label('Scope organization'),
    scopeAgentIds: f
      .computed(sql`to_jsonb(s.scope_agent_ids)`, 'json', z.array(z.number().int()))
      .label('Scope agents')
      .export(false),
    status: f.enum(SIMULATION_STATUSES).nullable(false).filter().sort().label('Status'),
    statusName: f.computed(statusName, 'text').label('Status name').export(false),
    processed: f.int().nullable(false).label('Processed'),
    total: f.int().nullable(false).label('Total'),
    etaSeconds: f.int().label('ETA (s)'),
    errorMessage: f.text().label('Error'),
    // the decided request (kept on the row), else the open one auth-platform started from APPROVAL_REQUESTED
    approvalId: f
      .computed(
        sql`coalesce(s.approval_id, (SELECT max(r.request_id) FROM approval_request r
          WHERE r.target_type = 'SIMULATION' AND r.target_id = s.simulation_id AND r.status = 'PENDING'))`,
        'int',
      )
      .label('Approval ID'),
    createdBy: f.createdBy().label('Created by'),
    createdByName: f.joined('u.user_name', 'text').label('Created by name'),
    createdAt: f.createdAt().sort().label('Created at'),
    startedAt: f.timestamp().label('Started at'),
    finishedAt: f.timestamp().label('Finished at'),
    changeCount: f
      .computed(sql`(SELECT count(*) FROM simulation_change c WHERE c.simulation_id = s.simulation_id)`, 'int')
      .label('Changes'),
    updatedAt: f.updatedAt().export(false),
  },
  statusField: 'status',
  defaultSort: '-id',
});
