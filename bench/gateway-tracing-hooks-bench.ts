/**
 * The CPU the request spans add to one gateway request, measured where the machine's load moves it
 * least: ONE process holds two gateway apps, one built before tracing started (registerTracing adds
 * nothing to it) and one after (OTEL_TRACES_EXPORTER=memory, synchronous context, as server.ts runs it),
 * both proxying to the same in-process stub; short alternating batches of `inject` requests are timed
 * with process.cpuUsage(). The difference of the two is what the span hooks, the span and the
 * traceparent injection cost per request (metrics are on in both apps, as in both gateway processes).
 * Compare it with the gateway process's CPU per request over HTTP (gateway-telemetry-bench.ts).
 *   pnpm exec tsx bench/gateway-tracing-hooks-bench.ts
 * Env: BENCH_BATCH requests per batch (2000), BENCH_ROUNDS alternating pairs (20).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runFromSource } from './lib/run-from-source.js';
import { loadAverage } from './lib/telemetry-cpu.js';

async function main(): Promise<void> {
  const BATCH = Number(process.env.BENCH_BATCH ?? 2000);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
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
  const env = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', AUTH_PLATFORM_URL: stubUrl, HOST: '127.0.0.1' };
  const config = loadGatewayConfig(env);
  const off = await buildGatewayApp(config);
  await off.ready();
  if (!(await startTracing('gateway', { OTEL_TRACES_EXPORTER: 'memory' }, { synchronousContext: true }))) throw new Error('tracing did not start');
  const on = await buildGatewayApp(config);
  await on.ready();

  const request = { method: 'GET' as const, url: '/api/auth/me', headers: { authorization: 'Bearer bench' } };
  const batch = async (app: typeof off): Promise<number> => {
    const before = process.cpuUsage();
    for (let i = 0; i < BATCH; i += 1) {
      const res = await app.inject(request);
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${res.body}`);
    }
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
  console.log(`gateway tracing hooks: ${ROUNDS} alternating pairs of ${BATCH} injected requests; load avg at the end ${loadAverage()}`);
  console.log(`  CPU µs/request (in process, stub included)  off: median ${median(offUs).toFixed(1)}, min ${Math.min(...offUs).toFixed(1)}`);
  console.log(`                                             on:  median ${median(onUs).toFixed(1)}, min ${Math.min(...onUs).toFixed(1)}`);
  console.log(`  added by tracing per request: median of paired differences ${median(deltas).toFixed(1)} µs, difference of minima ${(Math.min(...onUs) - Math.min(...offUs)).toFixed(1)} µs`);
  await off.close();
  await on.close();
  stub.close();
  process.exit(0);
}

await runFromSource(import.meta.url, main);
