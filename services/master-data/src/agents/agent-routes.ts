import { z } from 'zod';
import {
  action,
  applySort,
  envelope,
  maskAccountNo,
  maskEmail,
  maskPhone,
  maskResidentNo,
  moneyColumn,
  notFound,
  ok,
  pageResponse,
  paginate,
  perm,
  sendSpreadsheet,
  streamRows,
  zId,
  type ServiceApp,
} from '@csp/service-kit';
import type { FastifyRequest } from 'fastify';
import { mdDb } from '../people-db.js';
import { agentSelect, applyAgentFilters, findAgent, listHistory, type AgentRow } from './agent-repository.js';
import {
  agentDetailResp,
  agentHistoryResp,
  agentListQuery,
  agentMoveReq,
  agentResp,
  agentRetireReq,
  agentSaveReq,
  agentSortable,
} from './agent-schemas.js';
import {
  createAgent,
  moveAgent,
  retireAgent,
  revealMasked,
  toAgentDetailResp,
  toAgentResp,
  updateAgent,
  type AgentWriteContext,
} from './agent-service.js';

const MENU = 'ORG_AGENT';
const tags = ['Agent'];
const params = z.object({ id: zId });
const sortOptions = { sortable: agentSortable, defaultSort: 'a.agent_id' };

/** What goes into data_change_log: phone and e-mail masked, encrypted columns stay ciphertext. */
function logSnapshot<T extends { phone: string | null; email: string | null }>(row: T | undefined) {
  return row && { ...row, phone: maskPhone(row.phone), email: maskEmail(row.email) };
}

export async function registerAgentRoutes(app: ServiceApp): Promise<void> {
  const db = mdDb(app);
  const writeContext = (request: FastifyRequest): AgentWriteContext => ({
    db,
    cipher: app.cipher,
    userId: request.user?.userId ?? null,
    log: request.log,
  });
  const logChange = (
    request: FastifyRequest,
    action: 'CREATE' | 'UPDATE',
    agentId: number,
    before: { phone: string | null; email: string | null } | undefined,
    after: { phone: string | null; email: string | null },
  ) =>
    request.changeLog({
      menuCode: MENU,
      tableName: 'agent',
      recordId: agentId,
      action,
      before: logSnapshot(before),
      after: logSnapshot(after),
    });
  const logHistory = (request: FastifyRequest, history: { history_id: number } | undefined) => {
    if (history) {
      request.changeLog({ menuCode: MENU, tableName: 'agent_org_history', recordId: history.history_id, action: 'CREATE', after: history });
    }
  };

  app.get(
    '/api/agents',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'List agents', querystring: agentListQuery, response: { 200: pageResponse(agentResp) } },
    },
    async (request) => {
      const page = await paginate(applyAgentFilters(agentSelect(db), request.query), request.query, sortOptions);
      return ok({ ...page, list: page.list.map((r) => toAgentResp(r as AgentRow)) });
    },
  );

  app.get(
    '/api/agents/excel',
    {
      config: perm(MENU, 'EXPORT'),
      schema: { tags, summary: 'Export agents (xlsx, masked)', querystring: agentListQuery.omit({ pageNum: true, pageSize: true }) },
    },
    async (request, reply) => {
      const qb = applySort(applyAgentFilters(agentSelect(db), request.query), request.query, sortOptions);
      const cipher = app.cipher;
      return sendSpreadsheet(reply, {
        fileName: 'agents.xlsx',
        sheetName: 'Agents',
        columns: [
          { header: 'Agent ID', key: 'agent_id' },
          { header: 'Name', key: 'agent_name', width: 20 },
          { header: 'Organization', key: 'org_name', width: 25 },
          { header: 'Grade', key: 'grade_name', width: 20 },
          { header: 'Status', key: 'status_name' },
          { header: 'Phone', key: 'phone', value: (r: AgentRow) => maskPhone(r.phone) },
          { header: 'E-mail', key: 'email', width: 25, value: (r: AgentRow) => maskEmail(r.email) },
          { header: 'License no', key: 'license_no' },
          { header: 'Join date', key: 'join_date' },
          { header: 'Leave date', key: 'leave_date' },
          { header: 'Contracts', key: 'contract_count' },
          moneyColumn<AgentRow>('Total premium', 'total_amt'),
          { header: 'Tax type', key: 'tax_type_name' },
          { header: 'VAT type', key: 'vat_type_name' },
          { header: 'Business no', key: 'business_no' },
          { header: 'Bank', key: 'bank_code' },
          { header: 'Account no', key: 'account_no', value: (r: AgentRow) => revealMasked(cipher, r.account_no, maskAccountNo) },
          { header: 'Resident no', key: 'resident_no', value: (r: AgentRow) => revealMasked(cipher, r.resident_no, maskResidentNo) },
        ],
        rows: streamRows<AgentRow>(app.pool, qb.compile()),
      });
    },
  );

  app.get(
    '/api/agents/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Get agent (masked)', params, response: { 200: envelope(agentDetailResp) } } },
    async (request) => {
      const row = await findAgent(db, request.params.id);
      if (!row) throw notFound(`Agent ${request.params.id}`);
      return ok(toAgentDetailResp(row, app.cipher));
    },
  );

  app.get(
    '/api/agents/:id/history',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Organization/grade history of an agent', params, response: { 200: envelope(z.array(agentHistoryResp)) } },
    },
    async (request) => {
      const agent = await db.selectFrom('agent').select('agent_id').where('agent_id', '=', request.params.id).executeTakeFirst();
      if (!agent) throw notFound(`Agent ${request.params.id}`);
      const rows = await listHistory(db, request.params.id);
      return ok(
        rows.map((h) => ({
          historyId: h.history_id,
          agentId: h.agent_id,
          agentName: h.agent_name,
          fromOrgId: h.from_org_id,
          fromOrgName: h.from_org_name,
          toOrgId: h.to_org_id,
          toOrgName: h.to_org_name,
          fromGradeId: h.from_grade_id,
          fromGradeName: h.from_grade_name,
          toGradeId: h.to_grade_id,
          toGradeName: h.to_grade_name,
          changeType: h.change_type,
          changeTypeName: h.change_type_name,
          changeDate: h.change_date,
          changeReason: h.change_reason,
        })),
      );
    },
  );

  app.post(
    '/api/agents',
    {
      config: perm(MENU, 'CREATE'),
      schema: { tags, summary: 'Create agent (status ACTIVE, JOIN history)', body: agentSaveReq, response: { 200: envelope(z.object({ id: z.number() })) } },
    },
    async (request) => {
      const { agent, history } = await createAgent(writeContext(request), request.body);
      logChange(request, 'CREATE', agent.agent_id, undefined, agent);
      logHistory(request, history);
      return ok({ id: agent.agent_id });
    },
  );

  app.put(
    '/api/agents/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update agent', params, body: agentSaveReq, response: { 200: envelope() } },
    },
    async (request) => {
      const { before, after, history } = await updateAgent(writeContext(request), request.params.id, request.body);
      logChange(request, 'UPDATE', after.agent_id, before, after);
      logHistory(request, history);
      return ok();
    },
  );

  action(
    app,
    '/api/agents/:id/move',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Transfer, promote or demote an agent', params, body: agentMoveReq, response: { 200: envelope() } },
    },
    async (request) => {
      const { before, after, history } = await moveAgent(writeContext(request), request.params.id, request.body);
      logChange(request, 'UPDATE', after.agent_id, before, after);
      logHistory(request, history);
      return ok();
    },
  );

  action(
    app,
    '/api/agents/:id/retire',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Retire an agent (status LEAVE)', params, body: agentRetireReq, response: { 200: envelope() } },
    },
    async (request) => {
      const { before, after, history } = await retireAgent(writeContext(request), request.params.id, request.body);
      logChange(request, 'UPDATE', after.agent_id, before, after);
      logHistory(request, history);
      return ok();
    },
  );
}
