import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { agentFields } from '@csp/field-tables';
import { action, envelope, maskEmail, maskPhone, notFound, ok, perm, readDb, registerResource, writeOnlyGuard, zId, type ServiceApp } from '@csp/service-kit';
import { agentHistoryResource, agentResource } from './agents.resource.js';
import {
  agentMoveReq,
  agentRetireReq,
  agentUpdateReq,
  createAgent,
  moveAgent,
  retireAgent,
  updateAgent,
  type AgentSave,
  type AgentUpdate,
  type AgentWriteContext,
} from './agents.service.js';

const MENU = 'ORG_AGENT';
const tags = ['Agent'];
const params = z.object({ id: zId });

interface Contact {
  phone: string | null;
  email: string | null;
}

/** What goes into data_change_log: phone and e-mail masked, encrypted columns stay ciphertext. */
function logSnapshot<T extends Contact>(row: T | undefined) {
  return row && { ...row, phone: maskPhone(row.phone), email: maskEmail(row.email) };
}

/** List, /excel, detail from the resource; create, update, move and retire write history rows. */
export async function registerAgentRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, agentResource);

  const writeContext = (request: FastifyRequest): AgentWriteContext => ({
    db: app.db,
    cipher: app.cipher,
    userId: request.user?.userId ?? null,
    log: request.log,
    request,
  });
  const logChange = (
    request: FastifyRequest,
    change: { before?: Contact; after: Contact & { agent_id: number }; history?: { history_id: number } },
  ) => {
    const { before, after, history } = change;
    request.changeLog({
      menuCode: MENU,
      tableName: 'agent',
      recordId: after.agent_id,
      action: before ? 'UPDATE' : 'CREATE',
      before: logSnapshot(before),
      after: logSnapshot(after),
    });
    if (history) {
      request.changeLog({ menuCode: MENU, tableName: 'agent_org_history', recordId: history.history_id, action: 'CREATE', after: history });
    }
  };

  app.get(
    '/api/agents/:id/history',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Organization/grade history of an agent',
        params,
        response: { 200: envelope(z.array(agentHistoryResource.schemas.response)) },
      },
    },
    async (request) => {
      const db = await readDb(request);
      const agent = await db.selectFrom('agent').select('agent_id').where('agent_id', '=', request.params.id).executeTakeFirst();
      if (!agent) throw notFound(`Agent ${request.params.id}`);
      const rows = await agentHistoryResource
        .select(db)
        .where('h.agent_id', '=', request.params.id)
        .orderBy('h.change_date')
        .orderBy('h.history_id')
        .execute();
      return ok(rows.map((row) => agentHistoryResource.toResp(row, app.cipher)));
    },
  );

  app.post(
    '/api/agents',
    {
      config: perm(MENU, 'CREATE'),
      preValidation: writeOnlyGuard(agentFields, 'create'),
      schema: {
        tags,
        summary: 'Create agent (status ACTIVE, JOIN history)',
        body: agentResource.schemas.save,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (request) => {
      const { agent, history } = await createAgent(writeContext(request), request.body as AgentSave);
      logChange(request, { after: agent, history });
      return ok({ id: agent.agent_id });
    },
  );

  app.put(
    '/api/agents/:id',
    {
      config: perm(MENU, 'UPDATE'),
      // absent fields keep their value; masked/encrypted ones are write-only (kit write-only.ts)
      preValidation: writeOnlyGuard(agentFields, 'update'),
      schema: { tags, summary: 'Update agent', params, body: agentUpdateReq, response: { 200: envelope() } },
    },
    async (request) => {
      logChange(request, await updateAgent(writeContext(request), request.params.id, request.body as AgentUpdate));
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
      logChange(request, await moveAgent(writeContext(request), request.params.id, request.body));
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
      logChange(request, await retireAgent(writeContext(request), request.params.id, request.body));
      return ok();
    },
  );
}
