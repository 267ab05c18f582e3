#!/usr/bin/env node
// `pnpm demo-data -- --agents N --contracts M --seed S [--today YYYY-MM-DD] [--database-url URL] [--force]`
// and the launcher's `--demo` hook (no arguments: defaults, DATABASE_URL from the environment).
// The generator lives in packages/demo-data/src (TypeScript): run through tsx when it is
// installed (development), else the built packages/demo-data/dist/cli.js.
//
// The `--demo` hook also leaves a follow-up process behind (`--after-start`): once the gateway answers it
// runs the settlement of the latest complete month through the API (as admin) and writes that month's
// demo carrier files to DEMO_CARRIER_FILES_DIR (default .data/demo-carrier-files), ready to upload.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE = join(ROOT, 'packages/demo-data/src/cli.ts');
const BUILT = join(ROOT, 'packages/demo-data/dist/cli.js');
const GATEWAY = process.env.DEMO_GATEWAY_URL || 'http://127.0.0.1:8080';
const CARRIER_DIR = resolve(ROOT, process.env.DEMO_CARRIER_FILES_DIR || '.data/demo-carrier-files');
const args = process.argv.slice(2);

/** The demo-data command with these arguments; resolves to its exit code. */
async function runCli(cliArgs) {
  if (existsSync(join(ROOT, 'node_modules/tsx')) && existsSync(SOURCE)) {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SOURCE, ...cliArgs], {
      cwd: ROOT,
      stdio: 'inherit',
      env: process.env,
    });
    return new Promise((done) => child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0))));
  }
  if (existsSync(BUILT)) {
    const { runDemoDataCli } = await import(pathToFileURL(BUILT).href);
    return runDemoDataCli(cliArgs);
  }
  console.error('demo-data: neither tsx nor packages/demo-data/dist is available (run `pnpm build`)');
  return 1;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function api(method, path, token, body) {
  const res = await fetch(`${GATEWAY}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message ?? ''}`);
  return json.data;
}

/** The month before today (UTC), YYYYMM: the demo book's latest complete month. */
function latestMonth() {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

async function afterStart() {
  const month = latestMonth();
  if (existsSync(CARRIER_DIR) && readdirSync(CARRIER_DIR).some((f) => f.endsWith(`-${month}.json`))) {
    console.log(`[demo-data] the ${month} carrier files are already in ${CARRIER_DIR}`);
    return 0;
  }
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      if ((await fetch(`${GATEWAY}/api/health`, { signal: AbortSignal.timeout(3000) })).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`the gateway at ${GATEWAY} did not answer within 5 minutes`);
    await sleep(2000);
  }
  const password = process.env.ADMIN_PASSWORD;
  if (!password) throw new Error('ADMIN_PASSWORD is not set: cannot run the demo month');
  const { accessToken } = await api('POST', '/api/auth/login', undefined, { loginId: 'admin', password });
  console.log(`[demo-data] running the settlement of ${month} for the demo carrier files`);
  const runId = await api('POST', `/api/batch/settlement/run?settleMonth=${month}`, accessToken);
  for (;;) {
    await sleep(2000);
    const status = await api('GET', `/api/batch/settlement/status?jobLogId=${runId}`, accessToken);
    const state = status?.run?.status;
    if (state === 'COMPLETED') break;
    if (state === 'FAILED') throw new Error(`the settlement of ${month} failed: see GET /api/batch/settlement/status?jobLogId=${runId}`);
  }
  return runCli(['--carrier-files', CARRIER_DIR, '--carrier-month', month]);
}

if (args[0] === '--after-start') {
  process.exitCode = await afterStart().catch((err) => {
    console.error(`[demo-data] no demo carrier files: ${err.message}`);
    return 1;
  });
} else {
  const code = await runCli(args);
  if (code === 0 && args.length === 0 && process.env.ADMIN_PASSWORD && process.env.DEMO_CARRIER_FILES !== '0') {
    // The launcher's hook: the follow-up outlives this process (it waits for the services to start).
    const follow = spawn(process.execPath, [fileURLToPath(import.meta.url), '--after-start'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: process.env,
    });
    follow.unref();
    console.log(`[demo-data] the latest month's demo carrier files will be written to ${CARRIER_DIR} once the platform is up`);
  }
  process.exitCode = code;
}
