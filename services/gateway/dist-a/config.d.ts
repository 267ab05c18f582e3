import { type ServiceName } from './route-table.js';
/** Environment variable holding each upstream's base URL, and its local default (DECISIONS.md ports). */
export declare const UPSTREAM_ENV: Readonly<Record<ServiceName, {
    env: string;
    defaultUrl: string;
}>>;
export interface GatewayConfig {
    nodeEnv: 'development' | 'test' | 'production';
    host: string;
    port: number;
    logLevel: string;
    /** Trust X-Forwarded-For for the client IP (only behind a load balancer you control). */
    trustProxy: boolean;
    upstreams: Record<ServiceName, string>;
    loginRateLimit: {
        max: number;
        windowMs: number;
    };
    connectTimeoutMs: number;
    /** Long on purpose: spreadsheet exports of 1M rows stream for minutes. */
    responseTimeoutMs: number;
    connectionsPerUpstream: number;
    healthTimeoutMs: number;
    openApiCacheMs: number;
}
/** Reads and validates the gateway's environment once; throws (refusing to start) on bad values. */
export declare function loadGatewayConfig(env?: NodeJS.ProcessEnv): GatewayConfig;
