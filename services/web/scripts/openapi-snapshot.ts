/**
 * Writes openapi/gateway.json: the merged OpenAPI document the gateway would serve, built without a
 * network. Each service's app is built in this process (database pool and Redis are never used:
 * documents are produced at `ready()`), its `/v3/api-docs` is read with `inject`, and the documents
 * are merged with the gateway's own merge function. The web build generates its typed client from
 * this file; run `pnpm --filter @csp/web openapi:snapshot` after an API change and commit the result.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createDb, createPool } from '@csp/db';
import { createLogger, loadServiceConfig } from '@csp/service-kit';
import { mergeOpenApiDocuments, type ServiceDocument } from '../../gateway/src/openapi-merge.js';
import { SERVICE_NAMES, type ServiceName } from '../../gateway/src/route-table.js';

type BuildApp = (deps: Record<string, unknown>) => Promise<{
  ready(): Promise<unknown>;
  inject(options: { method: 'GET'; url: string }): Promise<{ statusCode: number; json(): any }>;
  close(): Promise<unknown>;
}>;

// A closed port: nothing is ever sent; Redis clients give up quietly.
const NOWHERE_REDIS = 'redis://127.0.0.1:1';
const NOWHERE_DB = 'postgres://postgres@127.0.0.1:1/none';
// Connections a service opens on its own (BullMQ's, for its queue gauges) have no error listener here:
// their refusal by the closed port is expected; anything else still stops the script.
process.on('uncaughtException', (err: Error & { code?: string; port?: number }) => {
  if (err.code === 'ECONNREFUSED' && err.port === 1) return;
  console.error(err);
  process.exit(1);
});

/**
 * A `$ref` to a component the service did not emit (seen for recursive zod schemas such as menu and
 * organization trees) would stop the type generator; such a node becomes an untyped value, reported.
 */
function dropDanglingRefs(doc: ServiceDocument['doc'], service: string, dropped: string[]): void {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const walk = (node: unknown, at: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${at}/${i}`));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/') && !(ref.slice(21) in schemas)) {
      dropped.push(`${service}: ${at}`);
      return { description: `untyped here: ${ref} is missing from the service document` };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, `${at}/${k}`)]));
  };
  doc.paths = walk(doc.paths, '#/paths') as Record<string, unknown>;
}

async function documentOf(service: ServiceName): Promise<ServiceDocument['doc'] | undefined> {
  const specifier = `@csp/${service}/app`;
  let mod: { buildApp?: BuildApp };
  try {
    mod = (await import(specifier)) as { buildApp?: BuildApp };
  } catch (err) {
    // A service without an app module is not there yet; any other failure must not drop it quietly.
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String((err as Error).message).includes(specifier)) return undefined;
    throw err;
  }
  if (!mod.buildApp) return undefined;
  const config = loadServiceConfig(service, {}, { NODE_ENV: 'test', DATABASE_URL: NOWHERE_DB, REDIS_URL: NOWHERE_REDIS, LOG_LEVEL: 'silent' });
  const pool = createPool({ connectionString: NOWHERE_DB, max: 1 });
  pool.on('error', () => {});
  const redis = new Redis(NOWHERE_REDIS, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => {});
  const app = await mod.buildApp({ config, db: createDb(pool), pool, redis, logger: createLogger({ name: service, level: 'silent' }) });
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/v3/api-docs' });
  const doc = res.statusCode === 200 ? (res.json() as ServiceDocument['doc']) : undefined;
  await Promise.race([app.close().catch(() => {}), new Promise((r) => setTimeout(r, 2_000))]);
  await pool.end().catch(() => {});
  redis.disconnect();
  return doc;
}

const docs: ServiceDocument[] = [];
const unavailable: ServiceName[] = [];
const dropped: string[] = [];
for (const service of SERVICE_NAMES) {
  const doc = await documentOf(service);
  if (doc) {
    dropDanglingRefs(doc, service, dropped);
    docs.push({ service, doc });
  } else unavailable.push(service);
}
if (dropped.length) console.warn(`dangling $refs replaced by untyped values:\n  ${dropped.join('\n  ')}`);
const { document, conflicts } = mergeOpenApiDocuments(docs, unavailable);
if (conflicts.length) console.warn(`conflicting definitions (first kept): ${conflicts.join(', ')}`);
const target = fileURLToPath(new URL('../openapi/gateway.json', import.meta.url));
await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${target}: ${Object.keys(document.paths).length} paths from ${docs.map((d) => d.service).join(', ')}`);
process.exit(0);
