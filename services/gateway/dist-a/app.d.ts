import { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { GatewayConfig } from './config.js';
export interface GatewayAppOptions {
    logger?: FastifyServerOptions['logger'];
}
/**
 * The gateway: routes `/api/<prefix>` to the owning service (src/route-table.ts), answers
 * `/api/health`, `/v3/api-docs` and `/swagger-ui` itself, and turns every failure of its own into
 * the spec envelope. It never touches the database and never checks permissions.
 */
export declare function buildGatewayApp(config: GatewayConfig, options?: GatewayAppOptions): Promise<FastifyInstance>;
