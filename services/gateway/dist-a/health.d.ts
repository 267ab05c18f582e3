import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from './config.js';
import type { UpstreamPools } from './proxy.js';
import { type ServiceName } from './route-table.js';
export interface UpstreamHealth {
    name: ServiceName;
    status: 'UP' | 'DOWN';
    latencyMs: number;
}
export interface GatewayHealth {
    status: 'UP' | 'DEGRADED';
    services: UpstreamHealth[];
}
export declare function checkUpstreams(config: GatewayConfig, pools: UpstreamPools): Promise<GatewayHealth>;
/**
 * `GET /api/health` (public) is the gateway's own liveness: it always succeeds while the gateway runs
 * and reports each upstream's own `/api/health`, so a stopped service shows as DOWN instead of failing it.
 */
export declare function registerHealthRoute(app: FastifyInstance, config: GatewayConfig, pools: UpstreamPools): void;
