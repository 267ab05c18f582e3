import {
  applySort,
  ok,
  pageResponse,
  paginate,
  perm,
  sendSpreadsheet,
  streamRows,
  type ServiceApp,
  type SpreadsheetColumn,
} from '@csp/service-kit';
import type { SelectQueryBuilder } from 'kysely';
import type { z } from 'zod';
import { toApiLogResp, toChangeLogResp, toLoginLogResp } from './mappers.js';
import { API_LOG_SORT, CHANGE_LOG_SORT, LOGIN_LOG_SORT, LogRepository } from './repository.js';
import { apiLogQuery, apiLogResp, changeLogQuery, changeLogResp, loginLogQuery, loginLogResp } from './schemas.js';

const MENU = 'SYSTEM_LOG';
const tags = ['system-logs'];

type Row = Record<string, any>;

interface LogKind<Q extends z.ZodObject> {
  path: string;
  name: string;
  query: Q;
  resp: z.ZodObject;
  sortable: Record<string, string>;
  defaultSort: string;
  select(query: z.output<Q>): SelectQueryBuilder<any, any, Row>;
  toResp(row: Row): Record<string, unknown>;
}

function stamp(): string {
  return new Date().toISOString().slice(0, 10).replaceAll('-', '');
}

/** A paged list and its `/excel` export (same filters, streamed through a cursor). */
function registerLog<Q extends z.ZodObject>(app: ServiceApp, kind: LogKind<Q>): void {
  const options = { sortable: kind.sortable, defaultSort: kind.defaultSort };
  app.get(
    kind.path,
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: `List ${kind.name}`, querystring: kind.query, response: { 200: pageResponse(kind.resp) } },
    },
    async (request) => {
      const query = request.query as z.output<Q> & { pageNum: number; pageSize: number };
      const page = await paginate(kind.select(query), query, options);
      return ok({ ...page, list: page.list.map(kind.toResp) });
    },
  );

  const columns: Array<SpreadsheetColumn<Row>> = Object.keys(kind.resp.shape).map((key) => ({ header: key, key, width: 20 }));
  app.get(
    `${kind.path}/excel`,
    {
      config: perm(MENU, 'EXPORT'),
      schema: { tags, summary: `Export ${kind.name} (xlsx)`, querystring: kind.query.omit({ pageNum: true, pageSize: true }) },
    },
    async (request, reply) => {
      const query = request.query as z.output<Q>;
      const compiled = applySort(kind.select(query), query as never, options).compile();
      return sendSpreadsheet(reply, {
        fileName: `${kind.name.replaceAll(' ', '-')}-${stamp()}.xlsx`,
        sheetName: kind.name,
        columns,
        rows: mapRows(streamRows<Row>(app.pool, compiled), kind.toResp),
      });
    },
  );
}

async function* mapRows(rows: AsyncIterable<Row>, map: (row: Row) => Record<string, unknown>): AsyncGenerator<Row> {
  for await (const row of rows) yield map(row);
}

export async function logRoutes(app: ServiceApp): Promise<void> {
  const repo = new LogRepository(app.db);

  registerLog(app, {
    path: '/api/system/logs/login',
    name: 'login log',
    query: loginLogQuery,
    resp: loginLogResp,
    sortable: LOGIN_LOG_SORT,
    defaultSort: 'log_id desc',
    select: (q) => repo.loginLogs(q),
    toResp: toLoginLogResp,
  });

  registerLog(app, {
    path: '/api/system/logs/api',
    name: 'api access log',
    query: apiLogQuery,
    resp: apiLogResp,
    sortable: API_LOG_SORT,
    defaultSort: 'access_id desc',
    // `status` (common parameter) filters the HTTP response code when it is a number.
    select: (q) =>
      repo.apiLogs({ ...q, responseCode: q.responseCode ?? (q.status && /^\d{3}$/.test(q.status) ? Number(q.status) : undefined) }),
    toResp: toApiLogResp,
  });

  registerLog(app, {
    path: '/api/system/logs/changes',
    name: 'data change log',
    query: changeLogQuery,
    resp: changeLogResp,
    sortable: CHANGE_LOG_SORT,
    defaultSort: 'change_id desc',
    select: (q) => repo.changeLogs(q),
    toResp: toChangeLogResp,
  });
}
