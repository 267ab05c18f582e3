import fastifySwagger, { type FastifyStaticSwaggerOptions } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenApiDocument, OpenApiSource } from './openapi-merge.js';

const EMPTY_DOCUMENT: OpenApiDocument = {
  openapi: '3.0.3',
  info: { title: 'Commission settlement platform API', version: '1.0.0' },
  paths: {},
};

/**
 * `GET /v3/api-docs`: the merged document of every live service. `/swagger-ui` is @fastify/swagger-ui;
 * it needs @fastify/swagger registered (static mode, placeholder document) and reads its spec
 * synchronously, so its `/json` route first refreshes the merged document in a preHandler and then
 * hands it over through `transformSpecification`.
 */
export async function registerApiDocs(app: FastifyInstance, source: OpenApiSource): Promise<void> {
  app.get('/v3/api-docs', async () => source.get());

  // The placeholder @fastify/swagger needs in static mode; swagger-ui is handed the merged document.
  const staticMode: FastifyStaticSwaggerOptions = {
    mode: 'static',
    specification: { document: { openapi: EMPTY_DOCUMENT.openapi, info: EMPTY_DOCUMENT.info, paths: {} } },
  };
  await app.register(fastifySwagger, staticMode);

  await app.register(fastifySwaggerUi, {
    routePrefix: '/swagger-ui',
    uiConfig: { persistAuthorization: true, displayRequestDuration: true, docExpansion: 'none' },
    uiHooks: {
      preHandler: (request, _reply, done) => {
        const path = request.url.split('?', 1)[0] ?? '';
        if (!path.endsWith('/json') && !path.endsWith('/yaml')) return done();
        source.get().then(() => done(), done);
      },
    },
    transformSpecificationClone: false,
    transformSpecification: () => (source.peek() ?? EMPTY_DOCUMENT) as unknown as Record<string, unknown>,
  });
}
