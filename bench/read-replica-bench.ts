/**
 * Reads off a hot standby against reads on the primary, on this machine: a real standby of the local
 * cluster (pg_basebackup, @csp/db/testing-standby), a test database with BENCH_ROWS demo items, the
 * kit's list/detail handlers in two apps on the same data (one with DATABASE_READ_URL, one without).
 * Prints p50/p95 of the first page, page 500 and a keyword search per side, a read right after the
 * same user's write (read-your-writes: waits for the replica's replay), and the first reads after the
 * standby is stopped (connect refused -> primary).
 *   pnpm exec tsx bench/read-replica-bench.ts
 * Env: BENCH_ROWS (200000), BENCH_ROUNDS (30). Runs as root (the standby then runs as `postgres`).
 */
import { loadavg } from 'node:os';
import { runFromSource } from './lib/run-from-source.js';

await runFromSource(import.meta.url, main);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
function fmt(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(1)} ms  p95 ${percentile(s, 95).toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const { startStandby } = await import('../packages/db/src/testing-standby.js');
  const { createTestContext } = await import('../packages/service-kit/src/testing.js');
  const { createServiceApp, registerResource } = await import('../packages/service-kit/src/index.js');
  const { createDemoSchema, demoItems, grant, DEMO_MENU, bearer } = await import('../packages/service-kit/test/demo-app.js');

  const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (2 cores, shared)`);

  let t = Date.now();
  const standby = await startStandby();
  console.log(`standby on port ${standby.port}: pg_basebackup + start ${((Date.now() - t) / 1000).toFixed(1)} s`);
  let readApp!: Awaited<ReturnType<typeof createServiceApp>>;
  const ctx = await createTestContext({
    serviceName: 'bench-primary',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await deps.pool.query(
        `INSERT INTO demo_item (item_code, item_name, amount)
         SELECT 'B-' || g, 'Bench item ' || g, (g % 1000) + 0.5 FROM generate_series(1, $1::int) g`,
        [ROWS],
      );
      await deps.pool.query('ANALYZE demo_item');
      readApp = await createServiceApp({
        name: 'bench-replica',
        ...deps,
        config: { ...deps.config, DATABASE_READ_URL: standby.urlFor(deps.config.DATABASE_URL) },
      });
      registerResource(readApp, demoItems);
      await readApp.ready();
      const primaryApp = await createServiceApp({ name: 'bench-primary', ...deps });
      registerResource(primaryApp, demoItems);
      return primaryApp;
    },
  });
  try {
    await grant(ctx.db, 'BENCH_READER', DEMO_MENU, ['READ', 'UPDATE']);
    const token = bearer(await ctx.tokenFor('BENCH_READER'));
    t = Date.now();
    await standby.waitForDatabase(new URL(ctx.config.DATABASE_URL).pathname.slice(1));
    await standby.catchUp(120_000);
    while ((await readApp.readRouting.check()) !== 'up') await new Promise((r) => setTimeout(r, 100));
    console.log(`${ROWS} rows replayed on the standby in ${((Date.now() - t) / 1000).toFixed(1)} s; status ${readApp.readRouting.status}`);

    const urls = {
      'first page': '/api/demo-items?pageSize=20',
      'page 500': '/api/demo-items?pageSize=20&pageNum=500',
      search: '/api/demo-items?pageSize=20&searchKeyword=B-12345',
    };
    for (const [label, url] of Object.entries(urls)) {
      const times = { replica: [] as number[], primary: [] as number[] };
      for (let i = 0; i < ROUNDS + 2; i++) {
        for (const [side, app] of [['replica', readApp], ['primary', ctx.app]] as const) {
          const s = performance.now();
          const res = await app.inject({ method: 'GET', url, headers: token });
          if (res.statusCode !== 200) throw new Error(`${side} ${url}: ${res.statusCode} ${res.body}`);
          if (i >= 2) times[side].push(performance.now() - s);
        }
      }
      console.log(`${label.padEnd(11)} replica ${fmt(times.replica)}   primary ${fmt(times.primary)}`);
    }

    const detail = { afterWrite: [] as number[], plain: [] as number[], write: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      let s = performance.now();
      const put = await readApp.inject({
        method: 'PUT',
        url: '/api/demo-items/1',
        headers: token,
        payload: { itemCode: 'B-1', itemName: `Bench item 1 v${i + 1}`, amount: '1.50' },
      });
      if (put.statusCode !== 200) throw new Error(`PUT ${put.statusCode} ${put.body}`);
      detail.write.push(performance.now() - s);
      s = performance.now();
      const res = await readApp.inject({ method: 'GET', url: '/api/demo-items/1', headers: token });
      detail.afterWrite.push(performance.now() - s);
      if (res.json().data.itemName !== `Bench item 1 v${i + 1}`) throw new Error('read-your-writes broken');
      s = performance.now();
      await readApp.inject({ method: 'GET', url: '/api/demo-items/2', headers: token });
      detail.plain.push(performance.now() - s);
    }
    const { values } = await (await import('../packages/service-kit/src/read-db.js')).dbReadFallbacks.get();
    const waits = values.find((v) => v.labels.service === 'bench-replica' && v.labels.reason === 'wait')?.value ?? 0;
    console.log(`write (PUT, records the LSN)  ${fmt(detail.write)}`);
    console.log(`detail right after own write  ${fmt(detail.afterWrite)}  (${waits} of ${ROUNDS} fell back to the primary after 500 ms)`);
    console.log(`detail, no pending write      ${fmt(detail.plain)}`);

    await standby.stop('immediate');
    const after: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      const res = await readApp.inject({ method: 'GET', url: urls['first page'], headers: token });
      if (res.statusCode !== 200) throw new Error(`after stop: ${res.statusCode} ${res.body}`);
      after.push(performance.now() - s);
    }
    console.log(`standby stopped: first read ${after[0]!.toFixed(1)} ms (connect refused -> primary), next ${after.slice(1).map((x) => x.toFixed(1)).join(', ')} ms; status ${readApp.readRouting.status}`);
  } finally {
    await readApp?.close();
    await ctx.close();
    await standby.destroy();
    console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  }
}
