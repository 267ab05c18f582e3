/**
 * The gateway bench with telemetry off and on, side by side in one run (issue 25). Each mode is its own
 * path: a gateway process in front of its own auth-platform process (BENCH_UPSTREAM=service, default:
 * `GET /api/auth/me` with a real token, as bench/gateway-bench.mjs measures the system), or in front of
 * one shared stub (BENCH_UPSTREAM=stub: the gateway's own CPU alone, the harshest ratio). Off = no
 * METRICS_PORT and no OTEL_* (no HTTP histogram, no tracing); on = OTEL_TRACES_EXPORTER=memory (spans
 * through the BatchSpanProcessor real OTLP uses, into a sink that lets each batch go) and METRICS_PORT set,
 * scraped at Prometheus' interval (infra/prometheus/prometheus.yml's scrape_interval; BENCH_SCRAPE_MS to
 * change it). autocannon loads the modes; per round: req/s, p99 and the CPU time per answered request of
 * the mode's processes (gateway, and auth-platform in service mode: from /proc, steadier than req/s on a
 * shared machine).
 *   pnpm exec tsx bench/gateway-telemetry-bench.ts            (from the repo root; needs PostgreSQL and Redis)
 * Env: BENCH_UPSTREAM (service | stub), BENCH_CONNECTIONS (50), BENCH_DURATION seconds (8), BENCH_ROUNDS (5),
 *      BENCH_RATE (req/s for all connections together; unset = as fast as it goes), BENCH_TOGETHER=1 (both
 *      modes loaded at the same time, each at BENCH_RATE or 1500 req/s: whatever else the machine does then
 *      hits both alike), BENCH_AA=1 (the second mode without telemetry too: the noise floor of the method),
 *      BENCH_ON=traces|metrics (the second mode with only that half of telemetry on; default both),
 *      BENCH_CPU_PROF=<dir> (V8 CPU profiles of the gateways and auth-platforms, written when they stop), BENCH_DB
 *      (csp_bench_gateway, service mode, dropped at the end), BENCH_BASE_URL, REDIS_URL / BENCH_REDIS_DB (13).
 * Target: telemetry on within 10 % of off. Printed per mode: the best and median req/s and CPU per request,
 * and the median of the per-round on/off ratios (each round runs both modes under the same machine load).
 * Read it next to gateway-tracing-hooks-bench.ts (both gateway apps in one process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ROOT, runFromSource, SOURCE_NODE_ARGS } from './lib/run-from-source.js';
import { benchRedisUrl } from './lib/settlement-workers.js';
import { cpuProfileArgs, loadAverage, processCpuSeconds } from './lib/telemetry-cpu.js';
import { waitHealthy } from './lib/wait-healthy.js';

const STUB_PORT = 18_801;
/** Per mode: gateway, its metrics port, its auth-platform (service mode), that one's metrics port. */
const PORTS = [
  { gateway: 18_880, gatewayMetrics: 18_964, upstream: 18_811, upstreamMetrics: 18_966 },
  { gateway: 18_881, gatewayMetrics: 18_965, upstream: 18_812, upstreamMetrics: 18_967 },
] as const;

/** Starts a node process; resolves when its output shows `ready` (at once when `ready` is undefined). */
function startProcess(name: string, args: string[], env: Record<string, string>, ready: string | undefined): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    if (ready === undefined) resolve(child);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready !== undefined && out.includes(ready)) resolve(child);
      if (out.length > 100_000) out = out.slice(-10_000);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${out.slice(-2000)}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Prometheus' scrape interval in the compose set-up (infra/prometheus/prometheus.yml), in ms. */
function prometheusScrapeMs(): number {
  const yml = readFileSync(new URL('../infra/prometheus/prometheus.yml', import.meta.url), 'utf8');
  const m = /scrape_interval:\s*(\d+)s/.exec(yml);
  if (!m) throw new Error('no scrape_interval in infra/prometheus/prometheus.yml');
  return Number(m[1]) * 1000;
}

interface Result {
  rps: number;
  p99: number;
  /** CPU time of the mode's processes per answered request, microseconds */
  cpuUs: number;
  /** the gateway's share of it */
  gatewayUs: number;
}

async function main(): Promise<void> {
  const require = createRequire(new URL('../services/gateway/package.json', import.meta.url));
  const autocannon = require('autocannon') as (opts: object, cb: (err: Error | null, result: any) => void) => void;
  const UPSTREAM = process.env.BENCH_UPSTREAM ?? 'service';
  if (!['service', 'stub'].includes(UPSTREAM)) throw new Error(`BENCH_UPSTREAM must be service or stub, not ${UPSTREAM}`);
  const SERVICE = UPSTREAM === 'service';
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const DURATION = Number(process.env.BENCH_DURATION ?? 8);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
  const RATE = Number(process.env.BENCH_RATE ?? 0);
  const PROF = process.env.BENCH_CPU_PROF;
  const TOGETHER = process.env.BENCH_TOGETHER === '1';
  const AA = process.env.BENCH_AA === '1';
  const ON = process.env.BENCH_ON ?? 'both';
  const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? prometheusScrapeMs());
  const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_gateway';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!['both', 'traces', 'metrics'].includes(ON)) throw new Error(`BENCH_ON must be both, traces or metrics, not ${ON}`);
  if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);
  const log = (msg: string) => console.log(`[gateway-telemetry-bench] ${msg}`);

  const children = new Set<ChildProcess>();
  const stopMode = async (mode: { gateway?: ChildProcess; upstream?: ChildProcess }) => {
    for (const child of [mode.gateway, mode.upstream]) {
      if (!child) continue;
      await stop(child);
      children.delete(child);
    }
    mode.gateway = undefined;
    mode.upstream = undefined;
  };
  const { createPool } = await import('../packages/db/src/index.js');
  const admin = SERVICE ? createPool({ connectionString: BASE_URL, max: 1 }) : undefined;
  try {
    const telemetryEnv = (metricsPort: number): Record<string, string> => ({
      ...(ON !== 'metrics' ? { OTEL_TRACES_EXPORTER: 'memory' } : {}),
      ...(ON !== 'traces' ? { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' } : {}),
    });
    interface Mode {
      name: string;
      on: boolean;
      ports: (typeof PORTS)[number];
      gateway?: ChildProcess;
      upstream?: ChildProcess;
      results: Result[];
    }
    const modes: Mode[] = [
      { name: 'off', on: false, ports: PORTS[0], results: [] },
      { name: AA ? 'off (A/A)' : ON === 'both' ? 'on' : ON, on: !AA, ports: PORTS[1], results: [] },
    ];
    const metricsPorts = (mode: Mode) => (mode.on && ON !== 'traces' ? [mode.ports.gatewayMetrics, ...(SERVICE ? [mode.ports.upstreamMetrics] : [])] : []);

    let token = 'bench';
    let startUpstream: (mode: Mode, round?: number) => Promise<void> = async () => {};
    if (SERVICE) {
      await admin!.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
      await admin!.query(`CREATE DATABASE ${DB_NAME}`);
      const url = new URL(BASE_URL);
      url.pathname = `/${DB_NAME}`;
      const password = randomBytes(12).toString('hex');
      const serviceEnv = {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        DATABASE_URL: url.toString(),
        REDIS_URL: benchRedisUrl('13'),
        JWT_SECRET: randomBytes(32).toString('hex'),
        ENCRYPT_KEY: randomBytes(16).toString('hex'),
        ADMIN_PASSWORD: password,
      };
      startUpstream = async (mode: Mode, round = 0) => {
        mode.upstream = await startProcess(
          `auth-platform ${mode.name}`,
          [...cpuProfileArgs(round ? PROF : undefined, `auth-platform-${mode.name.replace(/\W+/g, '-')}-${round}`), ...SOURCE_NODE_ARGS, 'services/auth-platform/src/server.ts'],
          { ...serviceEnv, PORT: String(mode.ports.upstream), ...(mode.on ? telemetryEnv(mode.ports.upstreamMetrics) : {}) },
          undefined, // LOG_LEVEL=warn: no listening line; the first health answer says it is up
        );
        children.add(mode.upstream);
        await waitHealthy(mode.upstream, `http://127.0.0.1:${mode.ports.upstream}/api/health`);
      };
      // the first one migrates the database and creates the administrator, alone
      await startUpstream(modes[0]!);
      const res = await fetch(`http://127.0.0.1:${PORTS[0].upstream}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ loginId: 'admin', password }),
      });
      const body = (await res.json()) as { success: boolean; code: string; message: string; data: { accessToken: string } };
      if (!body.success) throw new Error(`login failed: ${res.status} ${body.code} ${body.message}`);
      token = body.data.accessToken;
      await stopMode(modes[0]!);
    } else {
      const stubSource = `require('node:http').createServer((req, res) => { const body = JSON.stringify({ success: true, code: '0000', message: 'Success', data: { userId: 1, loginId: 'admin', roles: ['SUPER_ADMIN'] } }); res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }).listen(${STUB_PORT}, '127.0.0.1', () => console.log('stub ready'));`;
      children.add(await startProcess('stub', ['-e', stubSource], {}, 'stub ready'));
    }

    /** A mode's processes, fresh: one process can run 20 % slower than an identical one all its life. */
    const startMode = async (mode: Mode, round: number) => {
      if (SERVICE) await startUpstream(mode, round);
      mode.gateway = await startProcess(
        `gateway ${mode.name}`,
        [...cpuProfileArgs(PROF, `gateway-${mode.name.replace(/\W+/g, '-')}-${round}`), ...SOURCE_NODE_ARGS, 'services/gateway/src/server.ts'],
        {
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
          AUTH_PLATFORM_URL: `http://127.0.0.1:${SERVICE ? mode.ports.upstream : STUB_PORT}`,
          HOST: '127.0.0.1',
          PORT: String(mode.ports.gateway),
          ...(mode.on ? telemetryEnv(mode.ports.gatewayMetrics) : {}),
        },
        metricsPorts(mode).length ? 'metrics listener ready' : 'gateway listening',
      );
      children.add(mode.gateway);
    };

    const cpuOf = (mode: Mode) => {
      const gateway = processCpuSeconds(mode.gateway!.pid) ?? NaN;
      return { gateway, all: gateway + (SERVICE ? (processCpuSeconds(mode.upstream!.pid) ?? NaN) : 0) };
    };
    const load = async (mode: Mode, duration: number): Promise<Result & { errors: number; non2xx: number }> => {
      const before = cpuOf(mode);
      const r = await new Promise<any>((resolve, reject) =>
        autocannon(
          {
            url: `http://127.0.0.1:${mode.ports.gateway}/api/auth/me`,
            connections: CONNECTIONS,
            duration,
            headers: { authorization: `Bearer ${token}` },
            ...(RATE || TOGETHER ? { overallRate: RATE || 1500 } : {}),
          },
          (err, res) => (err ? reject(err) : resolve(res)),
        ),
      );
      const after = cpuOf(mode);
      const answered = Number(r.requests.total) || 1;
      return {
        rps: r.requests.average,
        p99: r.latency.p99,
        cpuUs: ((after.all - before.all) * 1e6) / answered,
        gatewayUs: ((after.gateway - before.gateway) * 1e6) / answered,
        errors: r.errors,
        non2xx: r.non2xx,
      };
    };
    let scraping = true;
    let scrapes = 0;
    const scraper = (async () => {
      while (scraping) {
        for (const mode of modes) for (const port of metricsPorts(mode)) await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text(), () => ''); // a mode between rounds: not up
        scrapes += 1;
        const until = Date.now() + SCRAPE_MS;
        while (scraping && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      }
    })();

    const loads: string[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const mode of round % 2 ? modes : [...modes].reverse()) await startMode(mode, round);
      for (const mode of modes) await load(mode, 3); // warm-up
      // rotate which mode goes first, so a slow part of a round does not always hurt the same mode
      const order = modes.map((_, i) => modes[(i + round - 1) % modes.length]!);
      const record = (mode: Mode, r: Awaited<ReturnType<typeof load>>) => {
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${mode.name}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
        mode.results.push(r);
        log(
          `round ${round} telemetry ${mode.name.padEnd(10)}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms, CPU ${r.cpuUs.toFixed(1)} µs/request` +
            (SERVICE ? ` (gateway ${r.gatewayUs.toFixed(1)})` : ''),
        );
      };
      if (TOGETHER) {
        const rs = await Promise.all(modes.map((mode) => load(mode, DURATION)));
        modes.forEach((mode, i) => record(mode, rs[i]!));
      } else for (const mode of order) record(mode, await load(mode, DURATION));
      loads.push(loadAverage());
      for (const mode of modes) await stopMode(mode);
    }
    scraping = false;
    await scraper;
    const median = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    };
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
    const path = SERVICE ? 'gateway + auth-platform' : 'gateway (stub upstream)';
    console.log('');
    console.log(
      `gateway telemetry overhead${AA ? ' (A/A: telemetry off in both)' : ''}, ${path}: ${ROUNDS} rounds x ${DURATION} s, ${CONNECTIONS} connections` +
        `${RATE || TOGETHER ? ` at ${RATE || 1500} req/s` : ', as fast as it goes'}${TOGETHER ? ', both modes loaded at once' : ', in turn'}; ` +
        `/metrics scraped every ${SCRAPE_MS / 1000} s; load avg after each round: ${loads.join(' | ')}`,
    );
    console.log(`  mode              req/s best  median   p99 ms best   CPU µs/request (${SERVICE ? 'both processes' : 'gateway'}): best  median${SERVICE ? '   gateway median' : ''}`);
    for (const mode of modes) {
      const rs = mode.results;
      console.log(
        `  telemetry ${mode.name.padEnd(10)} ${String(Math.round(Math.max(...rs.map((r) => r.rps)))).padStart(6)}  ${String(Math.round(median(rs.map((r) => r.rps)))).padStart(6)}` +
          `  ${String(Math.min(...rs.map((r) => r.p99))).padStart(11)}  ${Math.min(...rs.map((r) => r.cpuUs)).toFixed(1).padStart(38)}  ${median(rs.map((r) => r.cpuUs)).toFixed(1).padStart(6)}` +
          (SERVICE ? `  ${median(rs.map((r) => r.gatewayUs)).toFixed(1).padStart(15)}` : ''),
      );
    }
    const off = modes[0]!.results;
    const on = modes[1]!.results;
    const paired = (f: (r: Result) => number) => median(on.map((r, i) => f(r) / f(off[i]!) - 1));
    console.log(
      `  on vs off, median of ${ROUNDS} paired rounds: CPU per request ${pct(paired((r) => r.cpuUs))}` +
        (SERVICE ? ` (gateway alone ${pct(paired((r) => r.gatewayUs))})` : '') +
        `; req/s ${pct(paired((r) => r.rps))}; p99 ${pct(paired((r) => r.p99))}`,
    );
    log(`target: telemetry on within 10 % of off; ${scrapes} scrape passes of /metrics`);
  } finally {
    await Promise.all([...children].map(stop));
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  }
}

await runFromSource(import.meta.url, main);
