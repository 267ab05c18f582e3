import type { FastifyInstance } from 'fastify';
import { Pool } from 'undici';
import type { GatewayConfig } from './config.js';
import { type ServiceName } from './route-table.js';
export type UpstreamPools = Record<ServiceName, Pool>;
/**
 * One keep-alive undici pool per upstream, shared by every prefix of that service. Connecting fails
 * fast (a stopped service answers 503 at once); the response timeout is long because exports stream.
 */
export declare function createUpstreamPools(config: GatewayConfig): UpstreamPools;
/** One @fastify/http-proxy registration per prefix of the route table (longest first). */
export declare function registerProxies(app: FastifyInstance, config: GatewayConfig, pools: UpstreamPools): Promise<void>;
