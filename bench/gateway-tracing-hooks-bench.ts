/**
 * The CPU telemetry adds to one gateway request, measured where the machine's load moves it least: ONE
 * process holds two gateway apps, one with telemetry off (built before tracing started, no metrics port:
 * no hook at all) and one with it on (OTEL_TRACES_EXPORTER=memory, synchronous context as server.ts runs
 * it, METRICS_PORT set: the request span, traceparent injection and the HTTP histogram), both listening on
 * loopback and proxying to the same in-process stub; short alternating batches of requests (an undici
 * pool, 8 in flight) are timed with process.cpuUsage(). The difference is what telemetry costs per
 * request (client and stub included in both sides alike). Real HTTP instead of `app.inject`: inject
 * retains every request and response object here (fastify 5.12 / light-my-request 6.8, ~10 KB a
 * request), so a long inject bench measures a growing heap more than the hooks.
 * Compare it with the gateway process's CPU per request (gateway-telemetry-bench.ts).
 *   pnpm exec tsx bench/gateway-tracing-hooks-bench.ts
 * Env: BENCH_BATCH requests per batch (4000), BENCH_ROUNDS alternating pairs (20).
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { runFromSource } from './lib/run-from-source.js';
import { loadAverage } from './lib/telemetry-cpu.js';

async function main(): Promise<void> {
  const BATCH = Number(process.env.BENCH_BATCH ?? 4000);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
  const IN_FLIGHT = 8;
  const body = JSON.stringify({ success: true, code: '0000', message: 'Success', data: { userId: 1, loginId: 'admin', roles: ['SUPER_ADMIN'] } });
  const stub = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;

  const { buildGatewayApp } = await import('../services/gateway/src/app.js');
  const { loadGatewayConfig } = await import('../services/gateway/src/config.js');
  const { startTracing } = await import('../packages/service-kit/src/ops.js');
  const require = createRequire(new URL('../services/gateway/package.json', import.meta.url));
  const { Pool } = require('undici') as typeof import('undici');
  const env = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', AUTH_PLATFORM_URL: stubUrl, HOST: '127.0.0.1' };
  const off = await buildGatewayApp(loadGatewayConfig(env));
  if (!(await startTracing('gateway', { OTEL_TRACES_EXPORTER: 'memory' }, { synchronousContext: true }))) throw new Error('tracing did not start');
  const on = await buildGatewayApp(loadGatewayConfig({ ...env, METRICS_PORT: '0' }));
  const clientOf = async (app: typeof off) => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return new Pool(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, { connections: IN_FLIGHT });
  };
  const clients = new Map([[off, await clientOf(off)], [on, await clientOf(on)]]);

  const one = async (client: InstanceType<typeof Pool>) => {
    const res = await client.request({ method: 'GET', path: '/api/auth/me', headers: { authorization: 'Bearer bench' } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${text}`);
  };
  const batch = async (app: typeof off): Promise<number> => {
    const client = clients.get(app)!;
    const before = process.cpuUsage();
    // IN_FLIGHT requests at a time, BATCH in all
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = 0; i < BATCH / IN_FLIGHT; i += 1) await one(client);
    }));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / BATCH;
  };
  await batch(off);
  await batch(on); // warm-up

  const offUs: number[] = [];
  const onUs: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      offUs.push(await batch(off));
      onUs.push(await batch(on));
    } else {
      onUs.push(await batch(on));
      offUs.push(await batch(off));
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const deltas = onUs.map((x, i) => x - offUs[i]!);
  console.log(`gateway telemetry in one process: ${ROUNDS} alternating pairs of ${BATCH} requests over loopback; load avg at the end ${loadAverage()}`);
  console.log(`  CPU µs/request (whole process: client, gateway, stub)  off: median ${median(offUs).toFixed(1)}, min ${Math.min(...offUs).toFixed(1)}`);
  console.log(`                                                      on:  median ${median(onUs).toFixed(1)}, min ${Math.min(...onUs).toFixed(1)}`);
  console.log(`  added by telemetry per request: median of paired differences ${median(deltas).toFixed(1)} µs, difference of minima ${(Math.min(...onUs) - Math.min(...offUs)).toFixed(1)} µs`);
  for (const client of clients.values()) await client.close();
  await off.close();
  await on.close();
  stub.close();
  process.exit(0);
}

await runFromSource(import.meta.url, main);
