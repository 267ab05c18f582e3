import { z } from 'zod';
import { readDbEnvShape } from './read-db.js';

const DEV_JWT_SECRET = 'dev-only-jwt-secret-not-for-production-0123456789';
const DEV_ENCRYPT_KEY = 'dev-only-encrypt-key-0123456789a';

const baseShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATABASE_URL: z.string().min(1).default('postgres://postgres@127.0.0.1:5432/commission'),
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
  JWT_SECRET: z.string().min(1).optional(),
  ENCRYPT_KEY: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  FILE_STORAGE_DIR: z.string().min(1).default('.data/files'),
  ...readDbEnvShape,
};

/** The variables every service reads (docker compose consistency test). */
export const SERVICE_CONFIG_KEYS: readonly string[] = Object.keys(baseShape);

type BaseShape = typeof baseShape;

export type ServiceConfig<Extra extends z.ZodRawShape = Record<never, never>> = Omit<
  z.output<z.ZodObject<Omit<BaseShape, keyof Extra> & Extra>>,
  'JWT_SECRET' | 'ENCRYPT_KEY'
> & {
  SERVICE_NAME: string;
  JWT_SECRET: string;
  ENCRYPT_KEY: string;
  /** Start-up warnings (dev defaults in use); createServiceApp logs them. */
  warnings: string[];
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the environment once at boot. Throws `ConfigError` (the process refuses to
 * start) on invalid values, a JWT_SECRET under 32 bytes or a missing ENCRYPT_KEY in production.
 */
export function loadServiceConfig<Extra extends z.ZodRawShape = Record<never, never>>(
  serviceName: string,
  extraShape?: Extra,
  env: Record<string, string | undefined> = process.env,
): ServiceConfig<Extra> {
  const schema = z.object({ ...baseShape, ...(extraShape ?? {}) });
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration for ${serviceName}: ${detail}`);
  }
  const values = parsed.data as Record<string, unknown> & z.output<z.ZodObject<BaseShape>>;
  const production = values.NODE_ENV === 'production';
  const warnings: string[] = [];

  let jwtSecret = values.JWT_SECRET;
  if (production && (!jwtSecret || Buffer.byteLength(jwtSecret, 'utf8') < 32)) {
    throw new ConfigError(`Refusing to start ${serviceName}: JWT_SECRET must be at least 32 bytes in production`);
  }
  if (!jwtSecret) {
    jwtSecret = DEV_JWT_SECRET;
    warnings.push('JWT_SECRET is not set: using the development default (never in production)');
  }

  let encryptKey = values.ENCRYPT_KEY;
  if (production && !encryptKey) {
    throw new ConfigError(`Refusing to start ${serviceName}: ENCRYPT_KEY is required in production`);
  }
  if (!encryptKey) {
    encryptKey = DEV_ENCRYPT_KEY;
    warnings.push('ENCRYPT_KEY is not set: using the development default (never in production)');
  }
  if (Buffer.byteLength(encryptKey, 'utf8') > 32) {
    throw new ConfigError(`Invalid configuration for ${serviceName}: ENCRYPT_KEY must be at most 32 bytes`);
  }

  return {
    ...values,
    SERVICE_NAME: serviceName,
    JWT_SECRET: jwtSecret,
    ENCRYPT_KEY: encryptKey,
    warnings: values.NODE_ENV === 'test' ? [] : warnings,
  } as unknown as ServiceConfig<Extra>;
}
