import {
  action,
  AppError,
  envelope,
  moneyColumn,
  notFound,
  ok,
  pageSchema,
  perm,
  rateColumn,
  registerResource,
  sendSpreadsheet,
  toPage,
  zDate,
  zId,
  type ServiceApp,
} from '@csp/service-kit';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AreaDeps } from '../areas.js';
import { explainResp } from '../explain/explain.schemas.js';
import { explainSettlement, type SettleRow } from '../explain/explain.service.js';
import { MENU_SIMULATION, simulationResource } from './simulation.resource.js';
import { enqueueSimulation, simulationQueue } from './simulation.queue.js';
import { RULE_TABLE_INFO } from './simulation.rules.js';
import { requestAdoption } from './simulation-adopt.js';
import {
  agentRows,
  changesOf,
  compareSimulations,
  createSimulation,
  deleteSimulation,
  orgRows,
  queueSimulation,
  requireDone,
  simulationSaveSchema,
  summaryOf,
  updateSimulation,
} from './simulation.service.js';

const tags = ['Simulations'];
const params = z.object({ id: zId });
const money = z.string();
const agentResult = z.object({
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  grossBefore: money,
  grossAfter: money,
  grossDiff: money,
  grossDiffPct: z.string().nullable(),
  netBefore: money,
  netAfter: money,
  netDiff: money,
});
const change = z.object({
  changeId: z.number().int(),
  seq: z.number().int(),
  ruleTable: z.string(),
  action: z.string(),
  targetId: z.number().int().nullable(),
  values: z.record(z.string(), z.unknown()).nullable(),
  endDate: z.string().nullable(),
  label: z.string(),
  amountMoved: z.string().nullable(),
});
const summaryResp = z.object({
  totals: z.object({
    grossBefore: money, grossAfter: money, grossDiff: money, netBefore: money, netAfter: money, netDiff: money,
    agentsUp: z.number().int(), agentsDown: z.number().int(), agentsSame: z.number().int(), agentCount: z.number().int(),
  }),
  histogram: z.array(z.object({ from: money, to: money, count: z.number().int() })),
  topGainers: z.array(agentResult),
  topLosers: z.array(agentResult),
  changes: z.array(z.object({ changeId: z.number().int(), ruleTable: z.string(), action: z.string(), label: z.string(), amountMoved: z.string().nullable() })),
});
const orgResult = z.object({
  orgId: z.number().int(), parentId: z.number().int().nullable(), orgName: z.string(), orgLevel: z.number().int(),
  grossBefore: money, grossAfter: money, grossDiff: money, netBefore: money, netAfter: money, netDiff: money,
  agentCount: z.number().int(),
});
const agentsQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(20),
  sort: z.string().max(30).optional().describe('grossDiff (default, desc), grossDiffPct, agentName, agentId, grossBefore, grossAfter, netDiff; prefix - = descending'),
  orgId: zId.optional().describe('the organization and its subtree'),
  keyword: z.string().trim().max(100).optional(),
  direction: z.enum(['up', 'down', 'same']).optional(),
});
const compareResp = z.object({
  items: z.array(z.object({ agentId: z.number().int(), agentName: z.string().nullable(), grossA: money, grossB: money, diff: money })),
  totals: z.object({ grossA: money, grossB: money, diff: money }),
});

const SETTLE_COLUMNS = sql`s.settle_id, s.agent_id, a.agent_name, s.settle_month, s.status, s.recruit_total, s.maintain_total,
  s.override_total, s.exception_plus, s.exception_minus, s.chargeback_total, s.gross_amount, s.tax_amount, s.net_amount,
  s.correction_total, s.other_total, s.calc_basis`;

/** What-if simulations (issue 26, docs/simulation-api.md): CRUD, run on the `simulation` queue, results. */
export async function registerSimulationRoutes(app: ServiceApp, deps: AreaDeps): Promise<void> {
  const queue = simulationQueue(deps.queues);
  app.addHook('onClose', async () => {
    await queue.close();
  });
  registerResource(app, simulationResource);

  const detail = async (id: number) => {
    const row = await simulationResource.select(app.db).where(sql.ref(simulationResource.idRef), '=', id).executeTakeFirst();
    if (!row) throw notFound(`Simulation ${id}`);
    return { ...simulationResource.toResp(row, app.cipher), changes: await changesOf(app.db, id) };
  };

  app.get(
    '/api/simulations/rule-tables',
    {
      config: perm(MENU_SIMULATION, 'READ'),
      schema: {
        tags,
        summary: 'The rule tables a simulation can change, with the resource whose form edits a row',
        response: { 200: envelope(z.array(z.object({ ruleTable: z.string(), resource: z.string(), path: z.string(), label: z.string(), idField: z.string() }))) },
      },
    },
    async () => ok(RULE_TABLE_INFO.map(({ ruleTable, resource, path, label, idField }) => ({ ruleTable, resource, path, label, idField }))),
  );

  app.get(
    '/api/simulations/compare',
    {
      config: perm(MENU_SIMULATION, 'READ'),
      schema: { tags, summary: 'Two finished simulations of the same base month, agent by agent (B - A)', querystring: z.object({ a: zId, b: zId }), response: { 200: envelope(compareResp) } },
    },
    async (request) => ok((await compareSimulations(app.db, request.query.a, request.query.b)) as z.infer<typeof compareResp>),
  );

  app.get(
    '/api/simulations/:id',
    {
      config: perm(MENU_SIMULATION, 'READ'),
      schema: { tags, summary: 'A simulation with its proposed changes and progress', params, response: { 200: envelope(simulationResource.schemas.response.extend({ changes: z.array(change) })) } },
    },
    async (request) => ok(await detail(request.params.id)),
  );

  app.post(
    '/api/simulations',
    {
      config: perm(MENU_SIMULATION, 'CREATE'),
      schema: {
        tags,
        summary: "Create a simulation (DRAFT): base month, scope, proposed rule changes validated with the rule's own save schema (E411 changes[i].values.x)",
        body: simulationSaveSchema,
        response: { 200: envelope(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const id = await createSimulation(app.db, request.user?.userId ?? null, request.body);
      request.changeLog({ menuCode: MENU_SIMULATION, tableName: 'simulation', recordId: String(id), action: 'CREATE', after: request.body });
      return ok({ id });
    },
  );

  app.put(
    '/api/simulations/:id',
    {
      config: perm(MENU_SIMULATION, 'CREATE'),
      schema: { tags, summary: 'Replace name, scope and changes (DRAFT, DONE or FAILED; results are discarded)', params, body: simulationSaveSchema, response: { 200: envelope() } },
    },
    async (request) => {
      const before = await detail(request.params.id);
      await updateSimulation(app.db, request.params.id, request.body);
      request.changeLog({ menuCode: MENU_SIMULATION, tableName: 'simulation', recordId: String(request.params.id), action: 'UPDATE', before, after: request.body });
      return ok();
    },
  );

  app.delete(
    '/api/simulations/:id',
    {
      config: perm(MENU_SIMULATION, 'DELETE'),
      schema: { tags, summary: 'Delete a simulation and its results (not while QUEUED, RUNNING or ADOPTION_PENDING)', params, response: { 200: envelope() } },
    },
    async (request) => {
      const before = await detail(request.params.id);
      await deleteSimulation(app.db, request.params.id);
      request.changeLog({ menuCode: MENU_SIMULATION, tableName: 'simulation', recordId: String(request.params.id), action: 'DELETE', before });
      return ok();
    },
  );

  action(
    app,
    '/api/simulations/:id/run',
    {
      config: perm(MENU_SIMULATION, 'CREATE'),
      schema: { tags, summary: 'Queue the simulation on the simulation queue (progress: GET /api/simulations/{id})', params, response: { 202: envelope(z.object({ status: z.literal('QUEUED') })) } },
    },
    async (request, reply) => {
      await queueSimulation(app.db, request.params.id);
      await enqueueSimulation(queue, request.params.id);
      request.changeLog({ menuCode: MENU_SIMULATION, tableName: 'simulation', recordId: String(request.params.id), action: 'UPDATE', after: { status: 'QUEUED' } });
      reply.code(202);
      return ok({ status: 'QUEUED' as const });
    },
  );

  action(
    app,
    '/api/simulations/:id/adopt',
    {
      config: perm(MENU_SIMULATION, 'CREATE'),
      schema: {
        tags,
        summary: "Adopt a DONE simulation through the approval workflow (ADOPTION_PENDING; approved by someone other than the author, its changes become rule revisions dated effectiveFrom)",
        params,
        body: z.object({ effectiveFrom: zDate }),
        response: { 202: envelope(z.object({ status: z.literal('ADOPTION_PENDING'), approvalLineCode: z.string() })) },
      },
    },
    async (request, reply) => {
      const userId = request.user?.userId;
      if (userId === undefined) throw new AppError('BAD_REQUEST', 'Adopting needs a signed-in user');
      const result = await requestAdoption(app.db, { id: request.params.id, effectiveFrom: request.body.effectiveFrom, userId });
      request.changeLog(result.change);
      reply.code(202);
      return ok({ status: 'ADOPTION_PENDING' as const, approvalLineCode: result.approvalLineCode });
    },
  );

  app.get(
    '/api/simulations/:id/summary',
    {
      config: perm(MENU_SIMULATION, 'READ'),
      schema: { tags, summary: 'Totals, histogram of gross differences, top 10 gainers and losers, amount moved per change', params, response: { 200: envelope(summaryResp) } },
    },
    async (request) => ok((await summaryOf(app.db, request.params.id)) as z.infer<typeof summaryResp>),
  );

  app.get(
    '/api/simulations/:id/agents',
    {
      config: perm(MENU_SIMULATION, 'READ'),
      schema: { tags, summary: 'Per agent gross/net before and after, difference and percent', params, querystring: agentsQuery, response: { 200: envelope(pageSchema(agentResult)) } },
    },
    async (request) => {
      await requireDone(app.db, request.params.id);
      const q = request.query;
      const page = await agentRows(app.db, request.params.id, { page: q.pageNum, size: q.pageSize, sort: q.sort, orgId: q.orgId, keyword: q.keyword, direction: q.direction });
      return ok(toPage(page.items as z.infer<typeof agentResult>[], page.total, q));
    },
  );

  app.get(
    '/api/simulations/:id/export',
    {
      config: perm(MENU_SIMULATION, 'READ'),
      schema: { tags, summary: 'The per-agent results as a spreadsheet (money and percent as number cells)', params },
    },
    async (request, reply) => {
      const sim = await requireDone(app.db, request.params.id);
      const page = await agentRows(app.db, sim.simulation_id, { page: 1, size: 1_000_000, sort: 'agentId' });
      type Row = z.infer<typeof agentResult>;
      return sendSpreadsheet<Row>(reply, {
        fileName: `simulation-${sim.simulation_id}-${sim.base_month}`,
        sheetName: 'Agents',
        rows: page.items as Row[],
        columns: [
          { header: { ko: '설계사 ID', en: 'Agent ID' }, key: 'agentId', width: 12 },
          { header: { ko: '설계사', en: 'Agent' }, key: 'agentName', width: 20 },
          { header: { ko: '조직', en: 'Organization' }, key: 'orgName', width: 20 },
          moneyColumn({ ko: '총액(전)', en: 'Gross before' }, 'grossBefore'),
          moneyColumn({ ko: '총액(후)', en: 'Gross after' }, 'grossAfter'),
          moneyColumn({ ko: '총액 차이', en: 'Gross difference' }, 'grossDiff'),
          rateColumn({ ko: '차이(%)', en: 'Difference (%)' }, 'grossDiffPct'),
          moneyColumn({ ko: '실지급(전)', en: 'Net before' }, 'netBefore'),
          moneyColumn({ ko: '실지급(후)', en: 'Net after' }, 'netAfter'),
          moneyColumn({ ko: '실지급 차이', en: 'Net difference' }, 'netDiff'),
        ],
      });
    },
  );

  app.get(
    '/api/simulations/:id/orgs',
    {
      config: perm(MENU_SIMULATION, 'READ'),
      schema: { tags, summary: 'Per organization (its whole subtree) gross/net before and after', params, response: { 200: envelope(z.array(orgResult)) } },
    },
    async (request) => ok((await orgRows(app.db, request.params.id)) as z.infer<typeof orgResult>[]),
  );

  app.get(
    '/api/simulations/:id/agents/:agentId/explain',
    {
      config: perm(MENU_SIMULATION, 'READ'),
      schema: {
        tags,
        summary: "One agent's month line by line, real next to simulated (stored for the 100 largest moves; an unchanged agent's simulated explain is the real one)",
        params: z.object({ id: zId, agentId: zId }),
        response: { 200: envelope(z.object({ real: explainResp.nullable(), simulated: explainResp.nullable(), simulatedSameAsReal: z.boolean() })) },
      },
    },
    async (request) => {
      const { id, agentId } = request.params;
      const sim = await requireDone(app.db, id);
      const result = await app.db
        .selectFrom('simulation_agent_result')
        .selectAll()
        .where('simulation_id', '=', id)
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      if (!result) throw notFound(`Agent ${agentId} in simulation ${id}`);
      const { rows } = await sql<SettleRow>`
        SELECT ${SETTLE_COLUMNS} FROM settle_master s JOIN agent a ON a.agent_id = s.agent_id
        WHERE s.agent_id = ${agentId} AND s.settle_month = ${sim.base_month}`.execute(app.db);
      const real = rows[0] ? await explainSettlement(app.db, rows[0]) : null;
      const same = result.gross_before === result.gross_after && result.net_before === result.net_after;
      if (same) return ok({ real, simulated: real, simulatedSameAsReal: true });
      const stored = await app.db
        .selectFrom('simulation_settle')
        .select('explain')
        .where('simulation_id', '=', id)
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      if (!stored?.explain) {
        throw new AppError('BAD_REQUEST', `The simulated explain of agent ${agentId} is not stored (only the 100 largest moves are): run a simulation scoped to this agent`);
      }
      return ok({ real, simulated: stored.explain as z.infer<typeof explainResp>, simulatedSameAsReal: false });
    },
  );
}
