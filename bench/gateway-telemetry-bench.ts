/**
 * Gateway overhead of metrics and tracing (issue 25): two gateway processes side by side, one with
 * telemetry off (no METRICS_PORT: no HTTP histogram, no tracing) and one with it on
 * (OTEL_TRACES_EXPORTER=memory: spans through the BatchSpanProcessor real OTLP uses, into a bounded
 * in-memory sink; METRICS_PORT set and scraped every second), in front of the same stub upstream
 * process; autocannon runs against each in turn. Per run: req/s, p99 and the gateway process's CPU
 * time per request (from /proc: steadier than req/s on a shared machine).
 *   pnpm exec tsx bench/gateway-telemetry-bench.ts            (from the repo root; needs Redis for the /ops queues)
 * Env: BENCH_CONNECTIONS (50), BENCH_DURATION seconds (8), BENCH_ROUNDS (3), BENCH_RATE (req/s for all
 *      connections together; unset = as fast as it goes: on a loaded machine a fixed rate keeps both modes
 *      at the same batching per event-loop turn, so their CPU per request compares),
 *      BENCH_CPU_PROF=<dir> (V8 CPU profiles of both gateways, written when they stop),
 *      BENCH_TOGETHER=1 (both gateways loaded at the same time, each at BENCH_RATE or 1500 req/s: whatever else the
 *      machine does then hits both alike; in turn, one mode can get a quiet 8 s and the other a busy one),
 *      BENCH_AA=1 (the second gateway without telemetry too: the noise floor of the method on this machine),
 *      BENCH_ON=traces|metrics (the second gateway with only that half of telemetry on; default both).
 * Target: CPU per request with telemetry within 10 % of the gateway without. Printed: the best of each
 * mode and the median of the per-round on/off ratios (each round runs both modes back to back under the
 * same machine load). Each mode is one process: on a loaded 2-core machine one process can run 20 %
 * slower than an identical one for the whole bench, so read it next to gateway-tracing-hooks-bench.ts
 * (both modes in one process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { ROOT, runFromSource, SOURCE_NODE_ARGS } from './lib/run-from-source.js';
import { cpuProfileArgs, loadAverage, processCpuSeconds } from './lib/telemetry-cpu.js';

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

interface Result {
  rps: number;
  p99: number;
  /** gateway CPU time per answered request, microseconds */
  cpuUs: number;
}

async function main(): Promise<void> {
  const require = createRequire(new URL('../services/gateway/package.json', import.meta.url));
  const autocannon = require('autocannon') as (opts: object, cb: (err: Error | null, result: any) => void) => void;
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const DURATION = Number(process.env.BENCH_DURATION ?? 8);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  const RATE = Number(process.env.BENCH_RATE ?? 0);
  const PROF = process.env.BENCH_CPU_PROF;
  const TOGETHER = process.env.BENCH_TOGETHER === '1';
  const AA = process.env.BENCH_AA === '1';
  const ON = process.env.BENCH_ON ?? 'both';
  if (!['both', 'traces', 'metrics'].includes(ON)) throw new Error(`BENCH_ON must be both, traces or metrics, not ${ON}`);
  const log = (msg: string) => console.log(`[gateway-telemetry-bench] ${msg}`);

  const stubSource = `require('node:http').createServer((req, res) => { const body = JSON.stringify({ success: true, code: '0000', message: 'Success', data: { userId: 1, loginId: 'admin', roles: ['SUPER_ADMIN'] } }); res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }).listen(${STUB_PORT}, '127.0.0.1', () => console.log('stub ready'));`;
  const children: ChildProcess[] = [];
  try {
    children.push(await startProcess('stub', ['-e', stubSource], {}, 'stub ready'));
    const gatewayEnv = { NODE_ENV: 'production', LOG_LEVEL: 'info', AUTH_PLATFORM_URL: `http://127.0.0.1:${STUB_PORT}`, HOST: '127.0.0.1' };
    const gatewayArgs = (name: string) => [...cpuProfileArgs(PROF, name), ...SOURCE_NODE_ARGS, 'services/gateway/src/server.ts'];
    const telemetryEnv = (metricsPort: number): Record<string, string> => ({
      ...(ON !== 'metrics' ? { OTEL_TRACES_EXPORTER: 'memory' } : {}),
      ...(ON !== 'traces' ? { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' } : {}),
    });
    interface Mode { name: string; port: number; metricsPort?: number; env: Record<string, string>; child?: ChildProcess; results: Result[] }
    const modes: Mode[] = [
      { name: 'off', port: OFF_PORT, env: {}, results: [] },
      AA
        ? { name: 'off (A/A)', port: ON_PORT, env: {}, results: [] }
        : { name: ON === 'both' ? 'on' : ON, port: ON_PORT, ...(ON !== 'traces' ? { metricsPort: ON_METRICS } : {}), env: telemetryEnv(ON_METRICS), results: [] },
    ];
    for (const mode of modes) {
      mode.child = await startProcess(
        `gateway ${mode.name}`,
        gatewayArgs(`gateway-${mode.name.replace(' ', '-')}`),
        { ...gatewayEnv, PORT: String(mode.port), ...mode.env },
        mode.metricsPort ? 'metrics listener ready' : 'gateway listening',
      );
      children.push(mode.child);
    }

    const load = async (port: number, pid: number | undefined, duration: number): Promise<Result & { errors: number; non2xx: number }> => {
      const cpuBefore = processCpuSeconds(pid);
      const r = await new Promise<any>((resolve, reject) =>
        autocannon(
          {
            url: `http://127.0.0.1:${port}/api/auth/me`,
            connections: CONNECTIONS,
            duration,
            headers: { authorization: 'Bearer bench' },
            ...(RATE || TOGETHER ? { overallRate: RATE || 1500 } : {}),
          },
          (err, res) => (err ? reject(err) : resolve(res)),
        ),
      );
      const cpu = (processCpuSeconds(pid) ?? NaN) - (cpuBefore ?? NaN);
      const answered = Number(r.requests.total) || 1;
      return { rps: r.requests.average, p99: r.latency.p99, cpuUs: (cpu * 1e6) / answered, errors: r.errors, non2xx: r.non2xx };
    };
    let scraping = true;
    let scrapes = 0;
    const scraper = (async () => {
      while (scraping) {
        for (const mode of modes) if (mode.metricsPort) await fetch(`http://127.0.0.1:${mode.metricsPort}/metrics`).then((r) => r.text());
        scrapes += 1;
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();

    for (const mode of modes) await load(mode.port, mode.child!.pid, 3); // warm-up
    const loads: string[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      // rotate which mode goes first, so a slow part of a round does not always hurt the same mode
      const order = modes.map((_, i) => modes[(i + round - 1) % modes.length]!);
      const record = (mode: Mode, r: Awaited<ReturnType<typeof load>>) => {
        if (r.errors > 0 || r.non2xx > 0) throw new Error(`${mode.name}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
        mode.results.push(r);
        log(`round ${round} telemetry ${mode.name.padEnd(10)}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms, gateway CPU ${r.cpuUs.toFixed(1)} µs/request`);
      };
      if (TOGETHER) {
        const rs = await Promise.all(modes.map((mode) => load(mode.port, mode.child!.pid, DURATION)));
        modes.forEach((mode, i) => record(mode, rs[i]!));
      } else for (const mode of order) record(mode, await load(mode.port, mode.child!.pid, DURATION));
      loads.push(loadAverage());
    }
    scraping = false;
    await scraper;
    const best = (xs: Result[]) => ({
      rps: Math.max(...xs.map((x) => x.rps)),
      p99: Math.min(...xs.map((x) => x.p99)),
      cpuUs: Math.min(...xs.map((x) => x.cpuUs)),
    });
    // Paired per round (the modes ran back to back under the same load): the median ratio is the
    // figure least moved by the other people's load on a shared machine.
    const median = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    };
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
    console.log('');
    console.log(
      `gateway telemetry overhead${AA ? ' (A/A: telemetry off in both)' : ''}: ${ROUNDS} rounds x ${DURATION} s, ${CONNECTIONS} connections` +
        `${RATE || TOGETHER ? ` at ${RATE || 1500} req/s` : ''}${TOGETHER ? ', both gateways loaded at once' : ', in turn'}; load avg after each round: ${loads.join(' | ')}`,
    );
    console.log('  mode              best req/s  best p99 ms  CPU µs/request: best  median');
    for (const mode of modes) {
      const b = best(mode.results);
      console.log(`  telemetry ${mode.name.padEnd(10)} ${String(Math.round(b.rps)).padStart(8)}  ${String(b.p99).padStart(9)}  ${b.cpuUs.toFixed(1).padStart(18)}  ${median(mode.results.map((r) => r.cpuUs)).toFixed(1).padStart(6)}`);
    }
    {
      const off = modes[0]!.results;
      const on = modes[1]!.results;
      const pairedCpu = median(on.map((r, i) => r.cpuUs / off[i]!.cpuUs - 1));
      const pairedRps = median(on.map((r, i) => r.rps / off[i]!.rps - 1));
      const bOff = best(off);
      const bOn = best(on);
      console.log(
        `  on vs off: CPU per request best ${pct(bOn.cpuUs / bOff.cpuUs - 1)}, median of ${ROUNDS} paired rounds ${pct(pairedCpu)}; ` +
          `req/s best ${pct(bOn.rps / bOff.rps - 1)}, paired ${pct(pairedRps)}`,
      );
    }
    log(`target: telemetry on within 10 % of off (CPU per request); ${scrapes} scrape passes of /metrics`);
  } finally {
    await Promise.all(children.map(stop));
  }
}

await runFromSource(import.meta.url, main);
