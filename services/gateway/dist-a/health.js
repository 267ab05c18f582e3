import { ok } from './envelope.js';
import { SERVICE_NAMES } from './route-table.js';
async function probe(pools, name, timeoutMs) {
    const started = performance.now();
    let up = false;
    try {
        const res = await pools[name].request({
            path: '/api/health',
            method: 'GET',
            signal: AbortSignal.timeout(timeoutMs),
        });
        await res.body.dump();
        up = res.statusCode === 200;
    }
    catch {
        up = false;
    }
    return { name, status: up ? 'UP' : 'DOWN', latencyMs: Math.round(performance.now() - started) };
}
export async function checkUpstreams(config, pools) {
    const services = await Promise.all(SERVICE_NAMES.map((name) => probe(pools, name, config.healthTimeoutMs)));
    return { status: services.every((s) => s.status === 'UP') ? 'UP' : 'DEGRADED', services };
}
/**
 * `GET /api/health` (public) is the gateway's own liveness: it always succeeds while the gateway runs
 * and reports each upstream's own `/api/health`, so a stopped service shows as DOWN instead of failing it.
 */
export function registerHealthRoute(app, config, pools) {
    app.get('/api/health', async () => ok(await checkUpstreams(config, pools)));
}
//# sourceMappingURL=health.js.map