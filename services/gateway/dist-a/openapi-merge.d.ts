import type { FastifyBaseLogger } from 'fastify';
import type { UpstreamPools } from './proxy.js';
import { type ServiceName } from './route-table.js';
export interface OpenApiDocument {
    openapi: string;
    info: {
        title: string;
        version: string;
        description?: string;
    };
    paths: Record<string, unknown>;
    components?: Record<string, Record<string, unknown>>;
    tags?: {
        name: string;
        description?: string;
    }[];
    security?: unknown[];
    [extension: `x-${string}`]: unknown;
}
type PartialDocument = Partial<OpenApiDocument> & Record<string, unknown>;
export interface ServiceDocument {
    service: ServiceName;
    doc: PartialDocument;
}
export interface MergeResult {
    document: OpenApiDocument;
    /** `paths./api/x` or `components.schemas.Name` defined differently by two services (first one kept). */
    conflicts: string[];
}
/**
 * One OpenAPI 3 document out of every live service's own: paths, components and tags are united.
 * Services use disjoint path prefixes, and shared service-kit schemas are identical, so a real
 * conflict is a bug in a service; the first definition wins and the conflict is reported.
 */
export declare function mergeOpenApiDocuments(docs: ServiceDocument[], unavailable: ServiceName[]): MergeResult;
export interface OpenApiSource {
    /** The merged document, fetched at most once per cache period (concurrent callers share one fetch). */
    get(): Promise<OpenApiDocument>;
    /** Last merged document, if any (swagger-ui's synchronous hook reads it after `get()` resolved). */
    peek(): OpenApiDocument | undefined;
}
export declare function createOpenApiSource(options: {
    pools: UpstreamPools;
    cacheMs: number;
    timeoutMs: number;
    log: FastifyBaseLogger;
}): OpenApiSource;
export {};
