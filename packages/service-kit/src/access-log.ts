import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import type { ApiAccessLogTable, Db } from '@csp/db';
import { maskAccountNo, maskPhone, maskResidentNo } from './masking.js';
import { BufferedWriter } from './buffered-writer.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: no api_access_log row for this route (health, docs). */
    accessLog?: boolean;
  }
}

const SENSITIVE_KEY = /password|residentNo|accountNo|token|phone/i;
const HIDDEN = '****';

function maskValue(key: string, value: string): string {
  const masked = /residentNo/i.test(key)
    ? maskResidentNo(value)
    : /accountNo/i.test(key)
      ? maskAccountNo(value)
      : /phone/i.test(key)
        ? maskPhone(value)
        : null;
  return typeof masked === 'string' && masked !== value ? masked : HIDDEN;
}

/** The query string as JSON with sensitive parameters masked; null when there is none. */
export function maskedQueryParams(url: string): string | null {
  const q = url.indexOf('?');
  if (q < 0 || q === url.length - 1) return null;
  const params: Record<string, string | string[]> = {};
  for (const [key, raw] of new URLSearchParams(url.slice(q + 1))) {
    const value = SENSITIVE_KEY.test(key) ? maskValue(key, raw) : raw;
    const existing = params[key];
    if (existing === undefined) params[key] = value;
    else params[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return JSON.stringify(params);
}

function pathOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return (q < 0 ? request.url : request.url.slice(0, q)).slice(0, 1000);
}

export interface AccessLogOptions {
  db: Db;
  serviceName: string;
  flushIntervalMs?: number;
  maxRows?: number;
}

const accessLogPlugin: FastifyPluginAsync<AccessLogOptions> = async (app, options) => {
  const writer = new BufferedWriter<Insertable<ApiAccessLogTable>>({
    name: 'api_access_log',
    log: app.log,
    flushIntervalMs: options.flushIntervalMs,
    maxRows: options.maxRows,
    write: async (rows) => {
      await options.db.insertInto('api_access_log').values(rows).execute();
    },
  });
  app.decorate('accessLog', writer);

  app.addHook('onResponse', async (request, reply) => {
    if (request.routeOptions.config.accessLog === false) return;
    writer.push({
      user_id: request.user?.userId ?? null,
      request_id: String(request.id).slice(0, 64),
      service_name: options.serviceName.slice(0, 50),
      request_uri: pathOf(request),
      http_method: request.method,
      params: maskedQueryParams(request.url),
      response_code: reply.statusCode,
      response_time_ms: Math.round(reply.elapsedTime),
      ip_address: request.ip?.slice(0, 64) ?? null,
    });
  });

  app.addHook('onClose', async () => {
    await writer.close();
  });
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The api_access_log buffer; `flush()` is handy in tests. */
    accessLog: BufferedWriter<Insertable<ApiAccessLogTable>>;
  }
}

export const accessLog = fp(accessLogPlugin, { name: 'csp-access-log', fastify: '5.x' });
