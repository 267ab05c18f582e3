import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { Counter, Gauge } from 'prom-client';
import { z } from 'zod';
import { withArchiveReads, type Database, type Db } from '@csp/db';
// Type-only: the augmentations this file relies on (`request.user` from @fastify/jwt in auth.ts, `app.db`/`app.pool`
// in app.ts), so packages reaching this file through the ops entry type-check without the kit's main entry.
import type {} from './app.js';

/**
 * Reads off a PostgreSQL streaming replica (`DATABASE_READ_URL`; unset = everything on the primary).
 *
 * Lists, details, exports and hand-written report routes take their database from `readTarget` /
 * `readDb(request)`: the replica while it is healthy and close enough, else the primary. Writes and
 * every read inside a write's transaction use `app.db` (the primary) as before.
 *
 * Read-your-writes: after a state-changing request of a user, the primary's WAL position is kept in
 * Redis for that user (the highest one, a short TTL); that user's next reads wait until the replica
 * replayed up to it (at most DATABASE_READ_WAIT_MS), else they read the primary. Any process of any
 * service sees the same key, so a write through one service is seen by reads through another.
 *
 * Health: every DATABASE_READ_CHECK_MS the kit samples the primary's WAL position and the replica's
 * replay position. The lag is the age of the oldest primary sample the replica has not replayed yet
 * (zero when it has them all, also on an idle primary). An unreachable replica or one lagging past
 * DATABASE_READ_MAX_LAG_MS sends every read to the primary with a warning and a metric, until a later
 * check finds it healthy again. A replica failing between checks is caught on connect.
 */

const emptyIsUnset = (v: unknown) => (v === '' ? undefined : v);
const millis = z.preprocess(emptyIsUnset, z.coerce.number().int().min(0).optional());

/** The settings of the read path (part of every service's config). */
export const readDbEnvShape = {
  /** A streaming replica of DATABASE_URL; unset or empty = reads go to the primary. */
  DATABASE_READ_URL: z.preprocess(emptyIsUnset, z.string().min(1).optional()),
  /** A replica further behind than this is not read from (default 5000). */
  DATABASE_READ_MAX_LAG_MS: millis,
  /** How long a read after the same user's write waits for the replica (default 500). */
  DATABASE_READ_WAIT_MS: millis,
  /** Interval of the replica health and lag check (default 1000). */
  DATABASE_READ_CHECK_MS: millis,
};

export const READ_DEFAULTS = { maxLagMs: 5000, waitMs: 500, checkMs: 1000 } as const;
const CONNECT_TIMEOUT_MS = 1000;
const CHECK_TIMEOUT_MS = 2000;
const WAIT_POLL_MS = 10;
const WARN_EVERY_MS = 10_000;
/** Redis key of a user's last write position (no service in it: every service reads the same one). */
export const rywKey = (userId: number) => `csp:ryw:${userId}`;

export const dbReads = new Counter({
  name: 'csp_db_reads_total',
  help: 'Reads routed by the read path, by service and target (replica or primary)',
  labelNames: ['service', 'target'] as const,
});
export const dbReadFallbacks = new Counter({
  name: 'csp_db_read_fallback_total',
  help: 'Reads sent to the primary although a replica is configured: down, lag (past the limit) or wait (read-your-writes timed out)',
  labelNames: ['service', 'reason'] as const,
});
export const dbReplicaLag = new Gauge({
  name: 'csp_db_replica_lag_seconds',
  help: 'Age of the oldest primary WAL position the read replica has not replayed (last check)',
  labelNames: ['service'] as const,
});

export type ReplicaStatus = 'off' | 'unknown' | 'up' | 'down' | 'lagging';
export type FallbackReason = 'down' | 'lag' | 'wait';

/** Where one request reads: a database, and a pool for cursors (exports). */
export interface ReadTarget {
  db: Db;
  pool: Pick<pg.Pool, 'connect'>;
  replica: boolean;
}

/** A pool over the replica that hands out a primary connection when the replica refuses one. */
class ReplicaPool {
  constructor(
    private readonly replica: pg.Pool,
    private readonly primary: pg.Pool,
    private readonly onRefused: (err: unknown) => void,
  ) {}

  async connect(): Promise<pg.PoolClient> {
    try {
      return await this.replica.connect();
    } catch (err) {
      this.onRefused(err);
      return this.primary.connect();
    }
  }

  async end(): Promise<void> {
    if (!this.replica.ended) await this.replica.end();
  }
}

export interface ReadRoutingOptions {
  service: string;
  db: Db;
  pool: pg.Pool;
  redis: Redis;
  logger: FastifyBaseLogger;
  readUrl?: string;
  maxLagMs?: number;
  waitMs?: number;
  checkMs?: number;
}

/** The read path of one app: `target(userId)` picks replica or primary for one request. */
export class ReadRouting {
  status: ReplicaStatus;
  /** Lag at the last check, ms. */
  lagMs = 0;
  /** The replica's replay position at the last look (bytes since 0/0; Infinity = not in recovery). */
  replayLsn = -1;
  readonly maxLagMs: number;
  readonly waitMs: number;
  readonly checkMs: number;
  /** The replica's database (connect falls back to the primary); the primary's when there is none. */
  readonly db: Db;
  private readonly primaryTarget: ReadTarget;
  private readonly replicaTarget?: ReadTarget;
  private readonly replicaPool?: pg.Pool;
  private samples: Array<{ lsn: number; at: number }> = [];
  private timer?: NodeJS.Timeout;
  private checking?: Promise<ReplicaStatus>;
  private readonly warnedAt = new Map<string, number>();

  constructor(private readonly options: ReadRoutingOptions) {
    this.maxLagMs = options.maxLagMs ?? READ_DEFAULTS.maxLagMs;
    this.waitMs = options.waitMs ?? READ_DEFAULTS.waitMs;
    this.checkMs = options.checkMs ?? READ_DEFAULTS.checkMs;
    this.primaryTarget = { db: options.db, pool: options.pool, replica: false };
    if (!options.readUrl) {
      this.status = 'off';
      this.db = options.db;
      return;
    }
    this.status = 'unknown';
    this.replicaPool = new pg.Pool({
      connectionString: options.readUrl,
      application_name: `${options.service}-read`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // A replica going away must not crash the process: the check and connect() notice it.
    this.replicaPool.on('error', () => {});
    const pool = new ReplicaPool(this.replicaPool, options.pool, (err) => this.markDown(err));
    this.db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    this.replicaTarget = { db: this.db, pool, replica: true };
  }

  get enabled(): boolean {
    return this.replicaPool !== undefined;
  }

  /** Starts the periodic check (the first one runs now). */
  start(): Promise<ReplicaStatus> {
    if (!this.enabled || this.timer) return Promise.resolve(this.status);
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
    return this.check();
  }

  /** Samples the primary's WAL position and the replica's replay position; never throws. */
  check(): Promise<ReplicaStatus> {
    if (!this.enabled) return Promise.resolve(this.status);
    this.checking ??= this.runCheck().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async runCheck(): Promise<ReplicaStatus> {
    let primaryLsn: number;
    try {
      primaryLsn = await this.primaryLsn();
    } catch {
      return this.status; // the primary's own trouble is not the replica's
    }
    const sampledAt = Date.now();
    let replay: number;
    try {
      replay = await withTimeout(this.replicaReplayLsn(), CHECK_TIMEOUT_MS);
    } catch (err) {
      this.markDown(err);
      return this.status;
    }
    this.samples.push({ lsn: primaryLsn, at: sampledAt });
    this.samples = this.samples.filter((s) => s.lsn > replay);
    if (this.samples.length > 2000) this.samples = [...this.samples.slice(0, 1000), ...this.samples.slice(-1000)];
    this.lagMs = this.samples.length > 0 ? Date.now() - this.samples[0]!.at : 0;
    dbReplicaLag.set({ service: this.options.service }, this.lagMs / 1000);
    if (this.lagMs > this.maxLagMs) {
      if (this.status !== 'lagging') {
        this.options.logger.warn(
          { lagMs: this.lagMs, maxLagMs: this.maxLagMs },
          'read replica lags past DATABASE_READ_MAX_LAG_MS: reads go to the primary',
        );
      }
      this.status = 'lagging';
    } else {
      if (this.status === 'down' || this.status === 'lagging') {
        this.options.logger.info({ lagMs: this.lagMs, was: this.status }, 'read replica healthy again: reads go to the replica');
      }
      this.status = 'up';
    }
    return this.status;
  }

  /** Where a read of this user goes now (waits for the user's last write to reach the replica). */
  async target(userId?: number | null): Promise<ReadTarget> {
    const service = this.options.service;
    if (!this.replicaTarget) return this.primaryTarget;
    if (this.status !== 'up') {
      if (this.status !== 'unknown') this.fallback(this.status === 'lagging' ? 'lag' : 'down');
      return this.primary();
    }
    if (userId != null) {
      const needed = await this.options.redis.get(rywKey(userId));
      if (needed !== null && Number(needed) > this.replayLsn && !(await this.waitForReplay(Number(needed)))) {
        this.fallback('wait', { userId, lsn: needed, waitMs: this.waitMs });
        return this.primary();
      }
    }
    dbReads.inc({ service, target: 'replica' });
    return this.replicaTarget;
  }

  /** After a user's state-changing request: remember the primary's WAL position for that user. */
  async recordWrite(userId: number): Promise<void> {
    if (!this.enabled) return;
    const lsn = await this.primaryLsn();
    const ttlMs = Math.max(60_000, 2 * (this.maxLagMs + this.checkMs));
    await this.options.redis.eval(KEEP_HIGHEST, 1, rywKey(userId), String(lsn), String(ttlMs));
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.replicaPool && !this.replicaPool.ended) await this.replicaPool.end();
  }

  private primary(): ReadTarget {
    dbReads.inc({ service: this.options.service, target: 'primary' });
    return this.primaryTarget;
  }

  private async waitForReplay(lsn: number): Promise<boolean> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      try {
        this.replayLsn = await withTimeout(this.replicaReplayLsn(), Math.max(1, deadline - Date.now()));
      } catch (err) {
        if (Date.now() < deadline) this.markDown(err);
        return false;
      }
      if (this.replayLsn >= lsn) return true;
      if (Date.now() + WAIT_POLL_MS > deadline) return false;
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    }
  }

  private markDown(err: unknown): void {
    if (this.status !== 'down') {
      this.options.logger.warn({ err: errorText(err) }, 'read replica unreachable: reads go to the primary');
    }
    this.status = 'down';
    this.fallback('down');
  }

  private fallback(reason: FallbackReason, detail?: Record<string, unknown>): void {
    dbReadFallbacks.inc({ service: this.options.service, reason });
    if (reason === 'wait') {
      const last = this.warnedAt.get(reason) ?? 0;
      if (Date.now() - last >= WARN_EVERY_MS) {
        this.warnedAt.set(reason, Date.now());
        this.options.logger.warn(detail ?? {}, 'read replica did not reach the user\'s last write in time: read from the primary');
      }
    }
  }

  private async primaryLsn(): Promise<number> {
    const { rows } = await this.options.pool.query<{ lsn: string }>(`SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS lsn`);
    return Number(rows[0]!.lsn);
  }

  /** The replica's replay position; Infinity for a server that is not in recovery (nothing to wait for). */
  private async replicaReplayLsn(): Promise<number> {
    const { rows } = await this.replicaPool!.query<{ lsn: string | null }>(
      `SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::text AS lsn`,
    );
    const lsn = rows[0]?.lsn;
    return lsn === null || lsn === undefined ? Number.POSITIVE_INFINITY : Number(lsn);
  }
}

/** Sets the key to ARGV[1] unless it already holds a higher position; refreshes the TTL either way. */
const KEEP_HIGHEST = `
local cur = redis.call('GET', KEYS[1])
if (not cur) or tonumber(cur) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message || (err as { code?: string }).code || err.name : String(err);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The read path (replica or primary per request); see read-db.ts. */
    readRouting: ReadRouting;
    /** The replica's database (falls back to the primary on connect); `app.db` when no replica is set. */
    readDb: Db;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True when the request asks for archived months too (`includeArchive=true`). */
function includesArchive(request: FastifyRequest): boolean {
  const flag = (request.query as { includeArchive?: unknown } | undefined)?.includeArchive;
  return flag === 'true' || flag === true;
}

/**
 * Decorates `readRouting`/`readDb`, records writes for read-your-writes, checks the replica. Also
 * `includeArchive=true` on any request: its reads of the month tables through `archiveAware(db)` (lists,
 * exports, explain, reports) include the archived months (partitions.ts).
 */
export const readReplica = fp<ReadRoutingOptions>(
  async (app, options) => {
    const routing = new ReadRouting(options);
    app.decorate('readRouting', routing);
    app.decorate('readDb', routing.db);
    app.addHook('onRequest', (request, _reply, done) => {
      if (includesArchive(request)) withArchiveReads(done);
      else done();
    });
    if (!routing.enabled) return;
    // onSend: before the client has the answer, so its next read already finds the position.
    app.addHook('onSend', async (request, _reply, payload) => {
      const userId = request.user?.userId;
      if (userId != null && !SAFE_METHODS.has(request.method)) {
        try {
          await routing.recordWrite(userId);
        } catch (err) {
          request.log.warn({ err: errorText(err) }, 'could not record the write position for read-your-writes');
        }
      }
      return payload;
    });
    app.addHook('onReady', async () => {
      await routing.start();
    });
    app.addHook('onClose', async () => {
      await routing.close();
    });
  },
  { name: 'csp-read-replica' },
);

/** Where this user's read goes now (the kit's list/detail/export handlers and hand-written routes). */
export function readTarget(app: FastifyInstance<any, any, any, any, any>, userId?: number | null): Promise<ReadTarget> {
  const routing = (app as FastifyInstance).readRouting;
  if (!routing) return Promise.resolve({ db: app.db as Db, pool: app.pool as pg.Pool, replica: false });
  return routing.target(userId);
}

/** The database a read-only route reads from: `const db = await readDb(request)` (reports, explain, analytics). */
export async function readDb(request: FastifyRequest): Promise<Db> {
  return (await readTarget(request.server, request.user?.userId)).db;
}
