import { sql } from 'kysely';
import { afterAll, it } from 'vitest';
import { seedGeneratedBook } from './steps-generated-book.js';
import { allSteps, createHarness, type Harness } from './steps-harness.js';

let h: Harness;
afterAll(async () => { await h?.close(); });

it('bench', async () => {
  h = await createHarness();
  const n = Number(process.env.BENCH_N ?? 200000);
  let t = Date.now();
  for (let i = 0; i < n; i += 50000) {
    // disjoint id ranges per batch
    await seedPart(i);
  }
  async function seedPart(i: number) {
    if (i === 0) await seedGeneratedBook(h.tdb.pool, Math.min(50000, n), 1);
  }
  if (n > 50000) {
    await sql`INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date, lapse_date)
      SELECT c.contract_id + g * 50000, agent_id, product_id, policy_no || '-' || g, premium, pay_cycle, status, contract_date, lapse_date
      FROM contract c, generate_series(1, ${Math.ceil(n / 50000) - 1}) g`.execute(h.db);
  }
  console.log('seed ms', Date.now() - t);
  await h.startWorkers(allSteps());
  if (process.env.BENCH_W2) await h.startWorkers(allSteps(), ['calcRecruit', 'calcMaintain', 'calcOverride', 'aggregate']);
  t = Date.now();
  const s = await h.runMonth('202501');
  console.log('run ms', Date.now() - t, s.run.status);
  for (const st of s.steps) console.log(st.stepName, st.totalCount, st.successCount, (st as any).durationMs, st.chunkCount);
}, 600_000);
