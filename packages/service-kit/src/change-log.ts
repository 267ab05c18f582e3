import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import type { Database, DataChangeLogTable, Db } from '@csp/db';
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

/** Who made a change outside the request buffer: the user (null = the system) and the request/event/run id. */
export interface ChangeLogOrigin {
  userId: number | null;
  requestId: string;
}

/** A change-log entry as its data_change_log row. */
export function changeLogRow(entry: ChangeLogEntry, origin: ChangeLogOrigin): Insertable<DataChangeLogTable> {
  return {
    user_id: origin.userId,
    menu_code: entry.menuCode,
    table_name: entry.tableName,
    record_id: entry.recordId === null ? null : String(entry.recordId),
    action: entry.action,
    before_data: toJson(entry.before),
    after_data: toJson(entry.after),
    request_id: origin.requestId.slice(0, 64),
  };
}

const CHANGE_LOG_INSERT_ROWS = 1_000;

/**
 * Writes change-log rows in the caller's transaction, for work that has no request (event consumers, batch
 * steps): they commit or roll back with the change they describe.
 */
export async function writeChangeLog(
  db: Kysely<Database>,
  entries: readonly ChangeLogEntry[],
  origin: ChangeLogOrigin,
): Promise<void> {
  for (let i = 0; i < entries.length; i += CHANGE_LOG_INSERT_ROWS) {
    const rows = entries.slice(i, i + CHANGE_LOG_INSERT_ROWS).map((e) => changeLogRow(e, origin));
    await db.insertInto('data_change_log').values(rows).execute();
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
      writer.push(changeLogRow(entry, { userId: this.user?.userId ?? null, requestId: String(this.id) }));
    } catch (err) {
      this.log.error({ err }, 'failed to queue change log row');
    }
  });

  app.addHook('onClose', async () => {
    await writer.close();
  });
};

export const changeLog = fp(changeLogPlugin, { name: 'csp-change-log', fastify: '5.x' });
