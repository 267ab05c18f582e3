import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import type { Insertable } from 'kysely';
import type { DataChangeLogTable, Db } from '@csp/db';
import { BufferedWriter } from './buffered-writer.js';

export type ChangeAction = 'CREATE' | 'UPDATE' | 'DELETE' | 'APPROVE';

export interface ChangeLogEntry {
  menuCode: string;
  tableName: string;
  recordId: string | number | null;
  action: ChangeAction;
  before?: unknown;
  after?: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Queues a data_change_log row (user and request id added); never fails or delays the request. */
    changeLog(entry: ChangeLogEntry): void;
  }
  interface FastifyInstance {
    /** The data_change_log buffer; `flush()` is handy in tests. */
    changeLogWriter: BufferedWriter<Insertable<DataChangeLogTable>>;
  }
}

function toJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return null;
  }
}

export interface ChangeLogOptions {
  db: Db;
  flushIntervalMs?: number;
  maxRows?: number;
}

const changeLogPlugin: FastifyPluginAsync<ChangeLogOptions> = async (app, options) => {
  const writer = new BufferedWriter<Insertable<DataChangeLogTable>>({
    name: 'data_change_log',
    log: app.log,
    flushIntervalMs: options.flushIntervalMs,
    maxRows: options.maxRows,
    write: async (rows) => {
      await options.db.insertInto('data_change_log').values(rows).execute();
    },
  });
  app.decorate('changeLogWriter', writer);

  app.decorateRequest('changeLog', function (this, entry: ChangeLogEntry) {
    try {
      writer.push({
        user_id: this.user?.userId ?? null,
        menu_code: entry.menuCode,
        table_name: entry.tableName,
        record_id: entry.recordId === null ? null : String(entry.recordId),
        action: entry.action,
        before_data: toJson(entry.before),
        after_data: toJson(entry.after),
        request_id: String(this.id).slice(0, 64),
      });
    } catch (err) {
      this.log.error({ err }, 'failed to queue change log row');
    }
  });

  app.addHook('onClose', async () => {
    await writer.close();
  });
};

export const changeLog = fp(changeLogPlugin, { name: 'csp-change-log', fastify: '5.x' });
