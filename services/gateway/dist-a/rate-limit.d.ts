import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from './config.js';
export declare const TOO_MANY_LOGINS_MESSAGE = "Too many login attempts";
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
export declare function registerRateLimit(app: FastifyInstance): Promise<void>;
export declare function loginRateLimitRouteConfig(config: GatewayConfig): {
    rateLimit: {
        max: number;
        timeWindow: number;
        errorResponseBuilder: () => RateLimitedError;
    };
};
