import { SERVICE_NAMES } from './route-table.js';
const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/**
 * One OpenAPI 3 document out of every live service's own: paths, components and tags are united.
 * Services use disjoint path prefixes, and shared service-kit schemas are identical, so a real
 * conflict is a bug in a service; the first definition wins and the conflict is reported.
 */
export function mergeOpenApiDocuments(docs, unavailable) {
    const conflicts = [];
    const paths = {};
    const components = {};
    const tags = new Map();
    let security;
    for (const { doc } of docs) {
        for (const [path, item] of Object.entries(doc.paths ?? {})) {
            if (path in paths && !sameJson(paths[path], item))
                conflicts.push(`paths.${path}`);
            else
                paths[path] = item;
        }
        for (const [kind, entries] of Object.entries(doc.components ?? {})) {
            const target = (components[kind] ??= {});
            for (const [name, value] of Object.entries(entries ?? {})) {
                if (name in target && !sameJson(target[name], value))
                    conflicts.push(`components.${kind}.${name}`);
                else
                    target[name] = value;
            }
        }
        for (const tag of doc.tags ?? [])
            if (!tags.has(tag.name))
                tags.set(tag.name, tag);
        security ??= doc.security;
    }
    const available = docs.map((d) => d.service);
    const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
    const document = {
        openapi: docs.find((d) => typeof d.doc.openapi === 'string')?.doc.openapi ?? '3.0.3',
        info: {
            title: 'Commission settlement platform API',
            version: '1.0.0',
            description: `All services behind the gateway. Included: ${available.join(', ') || 'none'}.` +
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
async function fetchDocument(pools, service, timeoutMs) {
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
        const doc = (await res.body.json());
        return doc && typeof doc === 'object' && typeof doc.paths === 'object' ? doc : undefined;
    }
    catch {
        return undefined;
    }
}
export function createOpenApiSource(options) {
    let cached;
    let inFlight;
    async function load() {
        const fetched = await Promise.all(SERVICE_NAMES.map(async (service) => ({ service, doc: await fetchDocument(options.pools, service, options.timeoutMs) })));
        const docs = fetched.filter((f) => f.doc !== undefined);
        const unavailable = fetched.filter((f) => f.doc === undefined).map((f) => f.service);
        const { document, conflicts } = mergeOpenApiDocuments(docs, unavailable);
        if (conflicts.length)
            options.log.warn({ conflicts }, 'OpenAPI documents of two services disagree');
        cached = { at: Date.now(), document };
        return document;
    }
    return {
        get() {
            if (cached && Date.now() - cached.at < options.cacheMs)
                return Promise.resolve(cached.document);
            inFlight ??= load().finally(() => {
                inFlight = undefined;
            });
            return inFlight;
        },
        peek: () => cached?.document,
    };
}
//# sourceMappingURL=openapi-merge.js.map