import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { CHANGE_LOG_ACTIONS, LOGIN_RESULTS, LOGIN_TYPES } from '@csp/db';
import { defineResource, escapeLike, f, type ResourceDeclaration } from '@csp/service-kit';

export const LOG_MENU = 'SYSTEM_LOG';

/** What every log shares: a read-only big table, exported with EXPORT, newest first by its key. */
const readOnlyLog: Pick<ResourceDeclaration, 'menu' | 'tags' | 'create' | 'update' | 'detail' | 'delete' | 'export' | 'bigTable'> = {
  menu: LOG_MENU,
  tags: ['system-logs'],
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: 'EXPORT',
  bigTable: true,
};

export const loginLogResource = defineResource({
  ...readOnlyLog,
  name: 'login log',
  path: '/api/system/logs/login',
  table: 'login_log',
  alias: 'll',
  fields: {
    logId: f.id(),
    userId: f.ref().filter(),
    loginId: f.text({ max: 50 }).nullable(false).sort().filter('like'),
    loginType: f.enum(LOGIN_TYPES).nullable(false),
    result: f.enum(LOGIN_RESULTS).nullable(false).sort().filter(),
    failReason: f.text(),
    ipAddress: f.text(),
    userAgent: f.text(),
    loginAt: f.timestamp().nullable(false).sort(),
  },
  dateFilter: 'loginAt',
});

export const apiLogResource = defineResource({
  ...readOnlyLog,
  name: 'api access log',
  path: '/api/system/logs/api',
  table: 'api_access_log',
  alias: 'al',
  fields: {
    accessId: f.id(),
    userId: f.ref().filter(),
    requestId: f.text(),
    serviceName: f.text().filter(),
    requestUri: f.text().nullable(false).sort(),
    httpMethod: f.text().nullable(false),
    params: f.text(),
    responseCode: f.int().sort().filter(),
    responseTimeMs: f.int().sort(),
    ipAddress: f.text(),
    createdAt: f.createdAt().sort(),
  },
  dateFilter: 'createdAt',
  filters: {
    shape: { uri: z.string().max(1000).optional(), method: z.string().max(10).optional() },
    apply: (qb, q) => {
      let out = qb;
      if (typeof q.uri === 'string' && q.uri) out = out.where(sql<SqlBool>`al.request_uri ilike ${`%${escapeLike(q.uri)}%`}`);
      if (typeof q.method === 'string' && q.method) out = out.where(sql<SqlBool>`al.http_method = ${q.method.toUpperCase()}`);
      // `status` (common parameter) filters the HTTP response code when it is one.
      const { status, responseCode } = q as { status?: string; responseCode?: number };
      if (status && /^\d{3}$/.test(status) && responseCode === undefined) {
        out = out.where(sql<SqlBool>`al.response_code = ${Number(status)}`);
      }
      return out;
    },
  },
});

export const changeLogResource = defineResource({
  ...readOnlyLog,
  name: 'data change log',
  path: '/api/system/logs/changes',
  table: 'data_change_log',
  alias: 'cl',
  fields: {
    changeId: f.id(),
    userId: f.ref().filter(),
    menuCode: f.text().filter(),
    tableName: f.text().nullable(false).sort().filter(),
    recordId: f.text().filter(),
    beforeData: f.json(),
    afterData: f.json(),
    action: f.enum(CHANGE_LOG_ACTIONS).nullable(false).sort().filter(),
    requestId: f.text(),
    createdAt: f.createdAt().sort(),
  },
  dateFilter: 'createdAt',
});
