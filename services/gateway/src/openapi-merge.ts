import type { FastifyBaseLogger } from 'fastify';
import type { UpstreamPools } from './proxy.js';
import { SERVICE_NAMES, type ServiceName } from './route-table.js';

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, unknown>;
  components?: Record<string, Record<string, unknown>>;
  tags?: { name: string; description?: string }[];
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

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One OpenAPI 3 document out of every live service's own: paths, components and tags are united.
 * Services use disjoint path prefixes, and shared service-kit schemas are identical, so a real
 * conflict is a bug in a service; the first definition wins and the conflict is reported.
 */
export function mergeOpenApiDocuments(docs: ServiceDocument[], unavailable: ServiceName[]): MergeResult {
  const conflicts: string[] = [];
  const paths: Record<string, unknown> = {};
  const components: Record<string, Record<string, unknown>> = {};
  const tags = new Map<string, { name: string; description?: string }>();
  let security: unknown[] | undefined;

  for (const { doc } of docs) {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      if (path in paths && !sameJson(paths[path], item)) conflicts.push(`paths.${path}`);
      else paths[path] = item;
    }
    for (const [kind, entries] of Object.entries(doc.components ?? {})) {
      const target = (components[kind] ??= {});
      for (const [name, value] of Object.entries(entries ?? {})) {
        if (name in target && !sameJson(target[name], value)) conflicts.push(`components.${kind}.${name}`);
        else target[name] = value;
      }
    }
    for (const tag of doc.tags ?? []) if (!tags.has(tag.name)) tags.set(tag.name, tag);
    security ??= doc.security;
  }

  const available = docs.map((d) => d.service);
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const document: OpenApiDocument = {
    openapi: docs.find((d) => typeof d.doc.openapi === 'string')?.doc.openapi ?? '3.0.3',
    info: {
      title: 'Commission settlement platform API',
      version: '1.0.0',
      description:
        `All services behind the gateway. Included: ${available.join(', ') || 'none'}.` +
        (unavailable.length ? ` Not reachable right now: ${unavailable.join(', ')}.` : ''),
    },
    paths: sortedPaths,
    ...(Object.keys(components).length ? { components } : {}),
    ...(tags.size ? { tags: [...tags.values()] } : {}),
    ...(security ? { security } : {}),
    'x-services': { available, unavailable },
  };
  return { document, conflicts };
}

async function fetchDocument(pools: UpstreamPools, service: ServiceName, timeoutMs: number) {
  try {
    const res = await pools[service].request({
      path: '/v3/api-docs',
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      return undefined;
    }
    const doc = (await res.body.json()) as PartialDocument;
    return doc && typeof doc === 'object' && typeof doc.paths === 'object' ? doc : undefined;
  } catch {
    return undefined;
  }
}

export interface OpenApiSource {
  /** The merged document, fetched at most once per cache period (concurrent callers share one fetch). */
  get(): Promise<OpenApiDocument>;
  /** Last merged document, if any (swagger-ui's synchronous hook reads it after `get()` resolved). */
  peek(): OpenApiDocument | undefined;
}

export function createOpenApiSource(options: {
  pools: UpstreamPools;
  cacheMs: number;
  timeoutMs: number;
  log: FastifyBaseLogger;
}): OpenApiSource {
  let cached: { at: number; document: OpenApiDocument } | undefined;
  let inFlight: Promise<OpenApiDocument> | undefined;

  async function load(): Promise<OpenApiDocument> {
    const fetched = await Promise.all(
      SERVICE_NAMES.map(async (service) => ({ service, doc: await fetchDocument(options.pools, service, options.timeoutMs) })),
    );
    const docs = fetched.filter((f): f is ServiceDocument => f.doc !== undefined);
    const unavailable = fetched.filter((f) => f.doc === undefined).map((f) => f.service);
    const { document, conflicts } = mergeOpenApiDocuments(docs, unavailable);
    if (conflicts.length) options.log.warn({ conflicts }, 'OpenAPI documents of two services disagree');
    cached = { at: Date.now(), document };
    return document;
  }

  return {
    get() {
      if (cached && Date.now() - cached.at < options.cacheMs) return Promise.resolve(cached.document);
      inFlight ??= load().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    peek: () => cached?.document,
  };
}
