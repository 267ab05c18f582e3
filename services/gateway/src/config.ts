import { z } from 'zod';
import { opsEnvShape } from '@csp/service-kit/ops';
import { SERVICE_NAMES, type ServiceName } from './route-table.js';

/** Environment variable holding each upstream's base URL, and its local default (DECISIONS.md ports). */
export const UPSTREAM_ENV: Readonly<Record<ServiceName, { env: string; defaultUrl: string }>> = {
  'auth-platform': { env: 'AUTH_PLATFORM_URL', defaultUrl: 'http://127.0.0.1:8101' },
  'master-data': { env: 'MASTER_DATA_URL', defaultUrl: 'http://127.0.0.1:8102' },
  intake: { env: 'INTAKE_URL', defaultUrl: 'http://127.0.0.1:8103' },
  'ledger-settlement': { env: 'LEDGER_SETTLEMENT_URL', defaultUrl: 'http://127.0.0.1:8104' },
  'payment-tax': { env: 'PAYMENT_TAX_URL', defaultUrl: 'http://127.0.0.1:8105' },
  analytics: { env: 'ANALYTICS_URL', defaultUrl: 'http://127.0.0.1:8106' },
};

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: positiveInt(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOGIN_RATE_LIMIT: positiveInt(10),
  LOGIN_RATE_WINDOW_MS: positiveInt(60_000),
  UPSTREAM_CONNECT_TIMEOUT_MS: positiveInt(3_000),
  UPSTREAM_RESPONSE_TIMEOUT_MS: positiveInt(300_000),
  UPSTREAM_CONNECTIONS: positiveInt(128),
  HEALTH_TIMEOUT_MS: positiveInt(1_500),
  OPENAPI_CACHE_MS: positiveInt(30_000),
  /** The batch queues' Redis and BullMQ prefix (same values as ledger-settlement and the step workers). */
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
  BATCH_PREFIX: z.string().min(1).max(50).optional(),
  /** Lifetime of the /ops session cookie (queue dashboard). */
  OPS_SESSION_TTL_SECONDS: positiveInt(900),
  /** Ops port of GET /metrics (Prometheus), never the public port; the same settings as every process. */
  ...opsEnvShape,
  ...Object.fromEntries(SERVICE_NAMES.map((s) => [UPSTREAM_ENV[s].env, z.url().default(UPSTREAM_ENV[s].defaultUrl)])),
});

/** The variables the gateway reads (docker compose consistency test). */
export const GATEWAY_ENV_KEYS: readonly string[] = Object.keys(envSchema.shape);

export interface GatewayConfig {
  nodeEnv: 'development' | 'test' | 'production';
  host: string;
  port: number;
  logLevel: string;
  /** Trust X-Forwarded-For for the client IP (only behind a load balancer you control). */
  trustProxy: boolean;
  upstreams: Record<ServiceName, string>;
  loginRateLimit: { max: number; windowMs: number };
  connectTimeoutMs: number;
  /** Long on purpose: spreadsheet exports of 1M rows stream for minutes. */
  responseTimeoutMs: number;
  connectionsPerUpstream: number;
  healthTimeoutMs: number;
  openApiCacheMs: number;
  /** The batch queues' Redis; without it (configs built by hand in tests) health has no batch part and /ops is off. */
  redisUrl?: string;
  batchPrefix?: string | undefined;
  /** Default 900. */
  opsSessionTtlSeconds?: number;
  /** The /metrics listener (ops port); undefined = none. */
  metricsPort?: number | undefined;
  metricsHost?: string;
}

/** Reads and validates the gateway's environment once; throws (refusing to start) on bad values. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid gateway configuration: ${problems}`);
  }
  const e = parsed.data as z.infer<typeof envSchema> & Record<string, string>;
  const upstreams = Object.fromEntries(
    SERVICE_NAMES.map((s) => [s, e[UPSTREAM_ENV[s].env]!.replace(/\/+$/, '')]),
  ) as Record<ServiceName, string>;
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === 'true',
    upstreams,
    loginRateLimit: { max: e.LOGIN_RATE_LIMIT, windowMs: e.LOGIN_RATE_WINDOW_MS },
    connectTimeoutMs: e.UPSTREAM_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: e.UPSTREAM_RESPONSE_TIMEOUT_MS,
    connectionsPerUpstream: e.UPSTREAM_CONNECTIONS,
    healthTimeoutMs: e.HEALTH_TIMEOUT_MS,
    openApiCacheMs: e.OPENAPI_CACHE_MS,
    redisUrl: e.REDIS_URL,
    batchPrefix: e.BATCH_PREFIX,
    opsSessionTtlSeconds: e.OPS_SESSION_TTL_SECONDS,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
  };
}
