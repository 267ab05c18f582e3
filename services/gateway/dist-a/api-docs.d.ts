import type { FastifyInstance } from 'fastify';
import type { OpenApiSource } from './openapi-merge.js';
/**
 * `GET /v3/api-docs`: the merged document of every live service. `/swagger-ui` is @fastify/swagger-ui;
 * it needs @fastify/swagger registered (static mode, placeholder document) and reads its spec
 * synchronously, so its `/json` route first refreshes the merged document in a preHandler and then
 * hands it over through `transformSpecification`.
 */
export declare function registerApiDocs(app: FastifyInstance, source: OpenApiSource): Promise<void>;
