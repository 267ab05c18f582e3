import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
const EMPTY_DOCUMENT = {
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
export async function registerApiDocs(app, source) {
    app.get('/v3/api-docs', async () => source.get());
    const staticMode = { mode: 'static', specification: { document: EMPTY_DOCUMENT } };
    await app.register(fastifySwagger, staticMode);
    await app.register(fastifySwaggerUi, {
        routePrefix: '/swagger-ui',
        uiConfig: { persistAuthorization: true, displayRequestDuration: true, docExpansion: 'none' },
        uiHooks: {
            preHandler: (request, _reply, done) => {
                const path = request.url.split('?', 1)[0] ?? '';
                if (!path.endsWith('/json') && !path.endsWith('/yaml'))
                    return done();
                source.get().then(() => done(), done);
            },
        },
        transformSpecificationClone: false,
        transformSpecification: () => (source.peek() ?? EMPTY_DOCUMENT),
    });
}
//# sourceMappingURL=api-docs.js.map