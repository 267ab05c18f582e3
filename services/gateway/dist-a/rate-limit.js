import rateLimit from '@fastify/rate-limit';
export const TOO_MANY_LOGINS_MESSAGE = 'Too many login attempts';
/**
 * Registers the limiter without a global limit: only routes whose config carries `rateLimit` are
 * counted (the login route). In-memory, per gateway process, keyed by client IP.
 */
export async function registerRateLimit(app) {
    await app.register(rateLimit, { global: false });
}
export function loginRateLimitRouteConfig(config) {
    return {
        rateLimit: {
            max: config.loginRateLimit.max,
            timeWindow: config.loginRateLimit.windowMs,
            errorResponseBuilder: () => ({
                statusCode: 429,
                code: 'E400',
                message: TOO_MANY_LOGINS_MESSAGE,
            }),
        },
    };
}
//# sourceMappingURL=rate-limit.js.map