import { z } from 'zod';
import {
  action,
  applySort,
  envelope,
  isoTimestamp,
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
import { mdDb } from '../people-db.js';
import { applySuccessionFilters, successionSelect, type SuccessionRow } from './succession-repository.js';
import {
  successionCancelReq,
  successionListQuery,
  successionResp,
  successionSaveReq,
  successionSortable,
} from './succession-schemas.js';
import {
  cancelSuccession,
  createSuccession,
  deleteSuccession,
  toSuccessionResp,
  updateSuccession,
} from './succession-service.js';

const MENU = 'CONTRACT_SUCCESSION';
const TABLE = 'contract_succession';
const BASE = '/api/contract-successions';
const tags = ['Contract succession'];
const params = z.object({ id: zId });
const sortOptions = { sortable: successionSortable, defaultSort: 's.succession_id desc' };

export async function registerSuccessionRoutes(app: ServiceApp): Promise<void> {
  const db = mdDb(app);

  app.get(
    BASE,
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'List contract successions', querystring: successionListQuery, response: { 200: pageResponse(successionResp) } },
    },
    async (request) => {
      const page = await paginate(applySuccessionFilters(successionSelect(db), request.query), request.query, sortOptions);
      return ok({ ...page, list: page.list.map((r) => toSuccessionResp(r as SuccessionRow)) });
    },
  );

  app.get(
    `${BASE}/excel`,
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Export contract successions (xlsx)', querystring: successionListQuery.omit({ pageNum: true, pageSize: true }) },
    },
    async (request, reply) => {
      const qb = applySort(applySuccessionFilters(successionSelect(db), request.query), request.query, sortOptions);
      return sendSpreadsheet(reply, {
        fileName: 'contract-successions.xlsx',
        sheetName: 'Successions',
        columns: [
          { header: 'Succession ID', key: 'succession_id' },
          { header: 'Contract ID', key: 'contract_id' },
          { header: 'Policy no', key: 'policy_no', width: 20 },
          { header: 'From agent ID', key: 'from_agent_id' },
          { header: 'From agent', key: 'from_agent_name', width: 20 },
          { header: 'To agent ID', key: 'to_agent_id' },
          { header: 'To agent', key: 'to_agent_name', width: 20 },
          { header: 'Effective month', key: 'effective_month' },
          { header: 'Status', key: 'status' },
          { header: 'Reason', key: 'reason', width: 30 },
          { header: 'Cancelled at', key: 'cancelled_at', value: (r: SuccessionRow) => isoTimestamp(r.cancelled_at) },
        ],
        rows: streamRows<SuccessionRow>(app.pool, qb.compile()),
      });
    },
  );

  app.get(
    `${BASE}/:id`,
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Get contract succession', params, response: { 200: envelope(successionResp) } } },
    async (request) => {
      const row = await successionSelect(db).where('s.succession_id', '=', request.params.id).executeTakeFirst();
      if (!row) throw notFound(`Contract succession ${request.params.id}`);
      return ok(toSuccessionResp(row));
    },
  );

  app.post(
    BASE,
    {
      config: perm(MENU, 'CREATE'),
      schema: { tags, summary: 'Create contract succession', body: successionSaveReq, response: { 200: envelope(z.object({ id: z.number() })) } },
    },
    async (request) => {
      const created = await createSuccession(db, request.body, request.user?.userId ?? null);
      request.changeLog({ menuCode: MENU, tableName: TABLE, recordId: created.succession_id, action: 'CREATE', after: created });
      return ok({ id: created.succession_id });
    },
  );

  app.put(
    `${BASE}/:id`,
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update contract succession (head of the chain only)', params, body: successionSaveReq, response: { 200: envelope() } },
    },
    async (request) => {
      const { before, after } = await updateSuccession(db, request.params.id, request.body, request.user?.userId ?? null);
      request.changeLog({ menuCode: MENU, tableName: TABLE, recordId: after.succession_id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  action(
    app,
    `${BASE}/:id/cancel`,
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Cancel contract succession (head of the chain only)', params, body: successionCancelReq, response: { 200: envelope() } },
    },
    async (request) => {
      const reason = request.body?.reason ?? null;
      const { before, after } = await cancelSuccession(db, request.params.id, reason, request.user?.userId ?? null);
      request.changeLog({ menuCode: MENU, tableName: TABLE, recordId: after.succession_id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete contract succession', params, response: { 200: envelope() } },
    },
    async (request) => {
      const before = await deleteSuccession(db, request.params.id);
      request.changeLog({ menuCode: MENU, tableName: TABLE, recordId: before.succession_id, action: 'DELETE', before });
      return ok();
    },
  );
}
