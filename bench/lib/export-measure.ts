import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg } from 'node:os';
import { SOURCE_NODE_ARGS } from './run-from-source.js';
import { processCpuSeconds } from './telemetry-cpu.js';
import { waitHealthy } from './wait-healthy.js';

/**
 * One streaming export measured against a real service process (the export benches): the service is
 * started from a checkout (`root`: this one, or a baseline commit's worktree, same command line), one
 * GET is downloaded to nowhere, and the server's CPU (/proc user+system), wall time and peak RSS are taken.
 */
export interface ExportFigures {
  label: string;
  wallSeconds: number;
  serverCpuSeconds: number;
  peakRssMb: number;
  idleRssMb: number;
  bytes: number;
  loadAverage1m: number;
}

export interface ExportRun {
  label: string;
  /** Repository root the service runs from. */
  root: string;
  /** Service entry, relative to root (e.g. services/master-data/src/server.ts). */
  server: string;
  port: number;
  env: Record<string, string>;
  path: string;
  token: string;
  cpuProfDir?: string;
}

/** HS256 access token with the claims the service kit verifies (same secret as the server). */
export function accessToken(secret: string, userId: number): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    sub: String(userId),
    uid: userId,
    loginId: 'admin',
    userName: 'Administrator',
    roleCodes: ['SUPER_ADMIN'],
    agentId: null,
    typ: 'access',
    iat: now,
    exp: now + 3600,
  };
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

function startServer(run: ExportRun): ChildProcess {
  const profile = run.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${run.cpuProfDir}`] : [];
  return spawn(process.execPath, [...profile, ...SOURCE_NODE_ARGS, run.server], {
    cwd: run.root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(run.port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...run.env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Downloads to nowhere, counting bytes. */
function download(port: number, path: string, token: string): Promise<{ status: number; bytes: number; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, contentType: String(res.headers['content-type']) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Starts the service, downloads the export once, stops the service. */
export async function measureExport(run: ExportRun): Promise<ExportFigures> {
  const child = startServer(run);
  try {
    await waitHealthy(child, `http://127.0.0.1:${run.port}/api/health`);
    const pid = child.pid!;
    const idleRss = rssMb(pid);
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, rssMb(pid));
      } catch {
        // process gone
      }
    }, 100);
    const cpuBefore = (processCpuSeconds(pid) ?? NaN);
    const start = performance.now();
    const result = await download(run.port, run.path, run.token);
    const seconds = (performance.now() - start) / 1000;
    const serverCpu = (processCpuSeconds(pid) ?? NaN) - cpuBefore;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, rssMb(pid));
    if (result.status !== 200 || !result.contentType.includes('spreadsheetml')) {
      throw new Error(`${run.label}: export failed: HTTP ${result.status} ${result.contentType}`);
    }
    return {
      label: run.label,
      wallSeconds: Number(seconds.toFixed(2)),
      serverCpuSeconds: Number(serverCpu.toFixed(2)),
      peakRssMb: Math.round(peakRss),
      idleRssMb: Math.round(idleRss),
      bytes: result.bytes,
      loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
    };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

/**
 * A recorded baseline row instead of a worktree: BENCH_BASELINE_ROW='{"label":"c6adc7a","wallSeconds":11.45,
 * "serverCpuSeconds":10.98,"peakRssMb":192}' (only comparable when recorded on the same machine, same load).
 */
export function recordedBaseline(json: string | undefined): ExportFigures | undefined {
  if (!json) return undefined;
  const row = JSON.parse(json) as Partial<ExportFigures>;
  return {
    label: `${row.label ?? 'baseline'} (recorded)`,
    wallSeconds: Number(row.wallSeconds),
    serverCpuSeconds: Number(row.serverCpuSeconds),
    peakRssMb: Number(row.peakRssMb),
    idleRssMb: Number(row.idleRssMb ?? 0),
    bytes: Number(row.bytes ?? 0),
    loadAverage1m: Number(row.loadAverage1m ?? 0),
  };
}

/** The best (least CPU) of each label's runs, and new/old ratios when there is a baseline. */
export function sideBySide(runs: ExportFigures[], baselineLabel: string | undefined, currentLabel: string): void {
  const best = new Map<string, ExportFigures>();
  for (const r of runs) {
    const seen = best.get(r.label);
    if (!seen || r.serverCpuSeconds < seen.serverCpuSeconds) best.set(r.label, r);
  }
  console.log('\n| run | wall s | service CPU s | peak RSS MB | bytes | load 1m |');
  console.log('|---|---|---|---|---|---|');
  for (const r of runs) {
    console.log(`| ${r.label} | ${r.wallSeconds} | ${r.serverCpuSeconds} | ${r.peakRssMb} | ${r.bytes} | ${r.loadAverage1m} |`);
  }
  const now = best.get(currentLabel);
  const old = baselineLabel ? best.get(baselineLabel) : undefined;
  if (now && old) {
    const ratio = (a: number, b: number) => Number((a / b).toFixed(3));
    console.log(
      JSON.stringify({
        baseline: old.label,
        current: now.label,
        wallRatio: ratio(now.wallSeconds, old.wallSeconds),
        cpuRatio: ratio(now.serverCpuSeconds, old.serverCpuSeconds),
        peakRssMb: { baseline: old.peakRssMb, current: now.peakRssMb },
      }),
    );
  }
}

/**
 * The side-by-side comparison both export benches run: BENCH_BASELINE_ROW (a recorded row) and/or
 * BENCH_BASELINE_ROOT (an older checkout, BENCH_BASELINE_LABEL) alternating with this checkout BENCH_ROUNDS
 * times, so a change of load hits both sides alike; prints the best current run against `target` and the
 * side-by-side table. Resolves with the exit code (0 within target, 2 outside); `cleanup` always runs.
 */
export async function compareExports(options: {
  rows: number;
  target: { seconds: number; rssMb: number };
  currentRoot: string;
  run: (label: string, root: string) => Promise<ExportFigures>;
  cleanup: () => Promise<void>;
}): Promise<number> {
  const baselineRoot = process.env.BENCH_BASELINE_ROOT;
  const baselineLabel = process.env.BENCH_BASELINE_LABEL ?? 'baseline';
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  try {
    const runs: ExportFigures[] = [];
    const recorded = recordedBaseline(process.env.BENCH_BASELINE_ROW);
    if (recorded) runs.push(recorded);
    for (let round = 0; round < rounds; round++) {
      if (baselineRoot) runs.push(await options.run(baselineLabel, baselineRoot));
      runs.push(await options.run('current', options.currentRoot));
    }
    const current = runs.filter((r) => r.label === 'current').sort((a, b) => a.serverCpuSeconds - b.serverCpuSeconds)[0]!;
    const ok = current.wallSeconds < options.target.seconds && current.peakRssMb < options.target.rssMb;
    const mbPerSecond = Number((current.bytes / 1024 / 1024 / current.wallSeconds).toFixed(1));
    console.log(JSON.stringify({ rows: options.rows, ...current, mbPerSecond, target: options.target, withinTarget: ok }, null, 2));
    sideBySide(runs, baselineRoot ? baselineLabel : recorded?.label, 'current');
    return ok ? 0 : 2;
  } finally {
    await options.cleanup();
  }
}
