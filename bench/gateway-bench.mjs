#!/usr/bin/env node
// Gateway overhead benchmark (not a test): `GET /api/auth/me` with 50 concurrent connections, through
// the gateway and straight against auth-platform, then req/s, p99 and the gateway's overhead.
// Needs a running system (`LOG_LEVEL=warn pnpm start:local`: per-request info logs would compete for the
// CPU), then: node bench/gateway-bench.mjs
//
// Env: GATEWAY_URL (http://127.0.0.1:8080), AUTH_PLATFORM_URL (http://127.0.0.1:8101),
//      BENCH_CONNECTIONS (50), BENCH_DURATION seconds (15), BENCH_ADMIN_PASSWORD (else .data/admin-password).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// autocannon is a devDependency of @csp/gateway; resolve it from there.
const require = createRequire(new URL('../services/gateway/package.json', import.meta.url));
const autocannon = require('autocannon');

const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';
const DIRECT = process.env.AUTH_PLATFORM_URL ?? 'http://127.0.0.1:8101';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const TARGET = { reqPerSec: 2000, p99Ms: 50, overhead: 0.3 };

function adminPassword() {
  if (process.env.BENCH_ADMIN_PASSWORD) return process.env.BENCH_ADMIN_PASSWORD;
  if (process.env.ADMIN_PASSWORD) return process.env.ADMIN_PASSWORD;
  const file = new URL('../.data/admin-password', import.meta.url);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new Error('no admin password: set BENCH_ADMIN_PASSWORD (or start the system with the launcher first)');
}

async function login() {
  const res = await fetch(`${DIRECT}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginId: 'admin', password: adminPassword() }),
  });
  const body = await res.json();
  if (!body.success) throw new Error(`login failed: ${res.status} ${body.code} ${body.message}`);
  return body.data.accessToken;
}

async function check(base, token) {
  const res = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${base}/api/auth/me answered ${res.status}: ${await res.text()}`);
}

function run(url, token, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/api/auth/me`,
        connections: CONNECTIONS,
        duration,
        headers: { authorization: `Bearer ${token}` },
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function measure(label, url, token) {
  process.stdout.write(`${label}: warming up… `);
  await run(url, token, 3);
  process.stdout.write(`measuring ${DURATION} s with ${CONNECTIONS} connections… `);
  const r = await run(url, token, DURATION);
  const failed = r.errors + r.timeouts + r.non2xx;
  console.log('done');
  return {
    label,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    failed,
  };
}

const token = await login();
await check(DIRECT, token);
await check(GATEWAY, token);

const direct = await measure('auth-platform direct', DIRECT, token);
const gateway = await measure('through the gateway', GATEWAY, token);
const overhead = 1 - gateway.reqPerSec / direct.reqPerSec;

console.log('\nGET /api/auth/me');
console.table(
  [direct, gateway].map((r) => ({
    target: r.label,
    'req/s': Math.round(r.reqPerSec),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    requests: r.total,
    'errors/non-2xx': r.failed,
  })),
);
console.log(`gateway overhead: ${(overhead * 100).toFixed(1)} % (1 - gateway req/s / direct req/s)`);
const verdict = (ok) => (ok ? 'ok' : 'MISSED');
console.log(
  [
    `target >= ${TARGET.reqPerSec} req/s through the gateway: ${verdict(gateway.reqPerSec >= TARGET.reqPerSec)}`,
    `target p99 < ${TARGET.p99Ms} ms through the gateway: ${verdict(gateway.p99 < TARGET.p99Ms)}`,
    `target overhead <= ${TARGET.overhead * 100} %: ${verdict(overhead <= TARGET.overhead)}`,
  ].join('\n'),
);
