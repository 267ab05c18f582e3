import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from './config.js';

export const TOO_MANY_LOGINS_MESSAGE = 'Too many login attempts';

/** Thrown by the limiter; the gateway error handler renders it as HTTP 429 with code E400. */
export interface RateLimitedError {
  statusCode: 429;
  code: 'E400';
  message: string;
}

/**
 * Registers the limiter without a global limit: only routes whose config carries `rateLimit` are
 * counted (the login route). In-memory, per gateway process, keyed by client IP.
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, { global: false });
}

export function loginRateLimitRouteConfig(config: GatewayConfig) {
  return {
    rateLimit: {
      max: config.loginRateLimit.max,
      timeWindow: config.loginRateLimit.windowMs,
      errorResponseBuilder: (): RateLimitedError => ({
        statusCode: 429,
        code: 'E400',
        message: TOO_MANY_LOGINS_MESSAGE,
      }),
    },
  };
}
