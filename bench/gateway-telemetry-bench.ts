/**
 * Gateway overhead of metrics and tracing (issue 25): two gateway processes side by side, one with
 * telemetry off and one with it on (OTEL_TRACES_EXPORTER=memory: spans kept in memory; METRICS_PORT set
 * and scraped every second), in front of the same stub upstream process; autocannon runs against each
 * in alternation, and the best req/s and p99 of each are compared.
 *   pnpm exec tsx bench/gateway-telemetry-bench.ts            (from the repo root; needs Redis for the /ops queues)
 * Env: BENCH_CONNECTIONS (50), BENCH_DURATION seconds (8), BENCH_ROUNDS (3).
 * Target: req/s with telemetry within 10 % of the gateway without.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { ROOT, runFromSource, SOURCE_NODE_ARGS } from './lib/run-from-source.js';

const STUB_PORT = 18_801;
const OFF_PORT = 18_880;
const ON_PORT = 18_881;
const ON_METRICS = 18_964;

function startProcess(name: string, args: string[], env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes(ready)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${out.slice(-2000)}`)));
  });
}

async function main(): Promise<void> {
  const require = createRequire(new URL('../services/gateway/package.json', import.meta.url));
  const autocannon = require('autocannon') as (opts: object, cb: (err: Error | null, result: any) => void) => void;
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const DURATION = Number(process.env.BENCH_DURATION ?? 8);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  const log = (msg: string) => console.log(`[gateway-telemetry-bench] ${msg}`);

  const stubSource = `require('node:http').createServer((req, res) => { const body = JSON.stringify({ success: true, code: '0000', message: 'Success', data: { userId: 1, loginId: 'admin', roles: ['SUPER_ADMIN'] } }); res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }).listen(${STUB_PORT}, '127.0.0.1', () => console.log('stub ready'));`;
  const children: ChildProcess[] = [];
  try {
    children.push(await startProcess('stub', ['-e', stubSource], {}, 'stub ready'));
    const gatewayEnv = { NODE_ENV: 'production', LOG_LEVEL: 'info', AUTH_PLATFORM_URL: `http://127.0.0.1:${STUB_PORT}`, HOST: '127.0.0.1' };
    const gatewayArgs = [...SOURCE_NODE_ARGS, 'services/gateway/src/server.ts'];
    children.push(await startProcess('gateway off', gatewayArgs, { ...gatewayEnv, PORT: String(OFF_PORT) }, 'gateway listening'));
    children.push(
      await startProcess(
        'gateway on',
        gatewayArgs,
        { ...gatewayEnv, PORT: String(ON_PORT), OTEL_TRACES_EXPORTER: 'memory', METRICS_PORT: String(ON_METRICS), METRICS_HOST: '127.0.0.1' },
        'metrics listener ready',
      ),
    );

    const load = (port: number, duration: number) =>
      new Promise<{ rps: number; p99: number; errors: number; non2xx: number }>((resolve, reject) =>
        autocannon(
          { url: `http://127.0.0.1:${port}/api/auth/me`, connections: CONNECTIONS, duration, headers: { authorization: 'Bearer bench' } },
          (err, r) => (err ? reject(err) : resolve({ rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx })),
        ),
      );
    let scraping = true;
    let scrapes = 0;
    const scraper = (async () => {
      while (scraping) {
        await fetch(`http://127.0.0.1:${ON_METRICS}/metrics`).then((r) => r.text());
        scrapes += 1;
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();

    await load(OFF_PORT, 3);
    await load(ON_PORT, 3); // warm-up of both
    const off: Array<{ rps: number; p99: number }> = [];
    const on: Array<{ rps: number; p99: number }> = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const [mode, port, list] of [['off', OFF_PORT, off], ['on', ON_PORT, on]] as const) {
        const r = await load(port, DURATION);
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${mode}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
        list.push(r);
        log(`round ${round} telemetry ${mode.padEnd(3)}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms`);
      }
    }
    scraping = false;
    await scraper;
    const bestRps = (xs: typeof off) => Math.max(...xs.map((x) => x.rps));
    const bestP99 = (xs: typeof off) => Math.min(...xs.map((x) => x.p99));
    const overhead = 1 - bestRps(on) / bestRps(off);
    log(
      `best: off ${Math.round(bestRps(off))} req/s p99 ${bestP99(off)} ms, on ${Math.round(bestRps(on))} req/s p99 ${bestP99(on)} ms ` +
        `-> throughput overhead ${(overhead * 100).toFixed(1)} % (target <= 10 %) ${overhead <= 0.1 ? 'OK' : 'OVER'}; ${scrapes} scrapes of /metrics`,
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

await runFromSource(import.meta.url, main);
