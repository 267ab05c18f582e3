import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { STEP_NAMES, type BatchQueues } from '@csp/batch/queues';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './config.js';
import { ok } from './envelope.js';
import { createOpsAuthenticator, OPS_COOKIE, type OpsUser } from './ops-auth.js';
import type { UpstreamPools } from './proxy.js';

export const OPS_BASE = '/ops/queues';

/** Queue-level dashboard actions (anything else after the queue name is a job id). */
const QUEUE_ACTIONS = new Set(['retry', 'promote', 'clean', 'pause', 'resume', 'add', 'empty', 'concurrency', 'rate-limit']);

export interface OpsAction {
  action: string;
  queue: string;
  jobId?: string;
  jobState?: string;
}

/** Reads the action out of a bull-board API path, e.g. `/ops/queues/api/queues/<q>/<job>/retry/failed`. */
export function parseOpsAction(path: string): OpsAction | undefined {
  const rest = path.split('?', 1)[0]!.split(`${OPS_BASE}/api/queues/`)[1];
  if (!rest) return undefined;
  const parts = rest.split('/').map(decodeURIComponent);
  if (parts.length === 1) return { action: parts[0]!, queue: '*' }; // pause / resume all
  const [queue, second, third, fourth] = parts as [string, string, string?, string?];
  if (QUEUE_ACTIONS.has(second)) return { action: second, queue, ...(third ? { jobState: third } : {}) };
  return { action: third ?? 'update', queue, jobId: second, ...(fourth ? { jobState: fourth } : {}) };
}

/**
 * bull-board for the thirteen settlement queues at /ops/queues, SUPER_ADMIN only. A browser gets there
 * with a cookie: `POST /ops/session` with the bearer token sets `csp_ops` (httpOnly, SameSite=Strict,
 * Path=/ops, OPS_SESSION_TTL_SECONDS); scripts may send the bearer header directly. Every successful
 * change (retry, clean, promote, pause ...) is logged and recorded in the change log through
 * ledger-settlement, under the operator's own token.
 */
export async function registerOpsQueues(
  app: FastifyInstance,
  config: GatewayConfig,
  pools: UpstreamPools,
  queues: BatchQueues,
): Promise<void> {
  const auth = createOpsAuthenticator(pools['auth-platform'], Math.max(config.healthTimeoutMs, 3_000));
  const secure = config.nodeEnv === 'production' ? '; Secure' : '';
  const ttl = config.opsSessionTtlSeconds ?? 900;

  app.post('/ops/session', async (request, reply) => {
    const identity = await auth.require(request, reply);
    if (!identity) return reply;
    void reply.header(
      'set-cookie',
      `${OPS_COOKIE}=${encodeURIComponent(identity.token)}; Path=/ops; HttpOnly; SameSite=Strict; Max-Age=${ttl}${secure}`,
    );
    return ok({ path: OPS_BASE, expiresInSeconds: ttl });
  });

  app.delete('/ops/session', async (_request, reply) => {
    void reply.header('set-cookie', `${OPS_COOKIE}=; Path=/ops; HttpOnly; SameSite=Strict; Max-Age=0${secure}`);
    return ok({ path: OPS_BASE, expiresInSeconds: 0 });
  });

  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(OPS_BASE);
  createBullBoard({
    queues: STEP_NAMES.map((step) => new BullMQAdapter(queues.queue(step))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Settlement queues' } },
  });

  await app.register(
    async (scope) => {
      const users = new WeakMap<FastifyRequest, { user: OpsUser; token: string }>();
      scope.addHook('onRequest', async (request, reply) => {
        const identity = await auth.require(request, reply);
        if (identity) users.set(request, identity);
        return reply.sent ? reply : undefined;
      });
      scope.addHook('onResponse', async (request, reply) => {
        if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400) return;
        const who = users.get(request);
        const action = parseOpsAction(request.url);
        if (!who || !action) return;
        request.log.warn({ opsAction: action, user: who.user.loginId }, `queue dashboard: ${action.action} on ${action.queue}`);
        await recordAction(pools, request, who.token, action).catch((err: unknown) =>
          request.log.error({ err, opsAction: action }, 'queue dashboard action not recorded in the change log'),
        );
      });
      await scope.register(serverAdapter.registerPlugin());
    },
    { prefix: OPS_BASE },
  );
}

async function recordAction(pools: UpstreamPools, request: FastifyRequest, token: string, action: OpsAction): Promise<void> {
  const res = await pools['ledger-settlement'].request({
    path: '/api/batch/settlement/ops-actions',
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': request.id },
    body: JSON.stringify({
      action: action.action.toUpperCase(),
      queue: action.queue,
      ...(action.jobId ? { jobId: action.jobId } : {}),
      ...(action.jobState ? { jobState: action.jobState } : {}),
      method: request.method,
      path: request.url.split('?', 1)[0],
    }),
    signal: AbortSignal.timeout(5_000),
  });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`ledger-settlement answered ${res.statusCode}`);
}
