import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standbyReadConfig, standbyReadyFor, startStandby, type Standby } from '@csp/db/testing-standby';
import { metricsText } from '@csp/service-kit';
import { createTestContext } from '@csp/service-kit/testing';
import { buildApp } from '../src/app.js';
import { api, insertLedger, insertSettle, removeRedisPrefix, seedMiniBook, type Api, type Ctx, type MiniBook } from './api-helpers.js';

/**
 * Issue 27: the hand-written read routes of ledger-settlement (explain, the month summary report) and its lists
 * read a real hot standby (DATABASE_READ_URL): with replay paused, a row only the primary has is not in their
 * answer; after a confirm, the confirming user's next explain waits for the replica and shows it CONFIRMED.
 */
let standby: Standby;
let ctx: Ctx;
let a: Api;
let book: MiniBook;
let settleId: number;
const MONTH = '202503';

/** A counter of the read path for this service from the metrics text (reads by target, fallbacks by reason). */
async function readMetric(name: 'csp_db_reads_total' | 'csp_db_read_fallback_total', label: string): Promise<number> {
  const key = name === 'csp_db_reads_total' ? 'target' : 'reason';
  const line = (await metricsText()).split('\n').find((l) => l.startsWith(`${name}{service="ledger-settlement",${key}="${label}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

beforeAll(async () => {
  standby = await startStandby();
  const batchPrefix = `csp-ls-replica-${randomBytes(5).toString('hex')}`;
  const base = await createTestContext({
    serviceName: 'ledger-settlement',
    buildApp: (deps) =>
      buildApp({
        ...deps,
        batchPrefix,
        config: { ...deps.config, ...standbyReadConfig(standby, deps.config.DATABASE_URL) },
      }),
  });
  ctx = {
    ...base,
    batchPrefix,
    close: async () => {
      await base.close();
      await removeRedisPrefix(batchPrefix);
    },
  };
  a = api(ctx);
  book = await seedMiniBook(ctx);
  const [c1] = book.contracts as [number];
  await insertLedger(ctx, 'maintain_ledger', { agentId: book.fc, contractId: c1, settleMonth: MONTH, companyAmount: '20.00', agentAmount: '10.00' });
  settleId = await insertSettle(ctx, { agentId: book.fc, settleMonth: MONTH, maintain: '10.00', gross: '10.00', tax: '0.33', net: '9.67' });
  await standbyReadyFor(standby, ctx.config.DATABASE_URL, async () => (await ctx.app.readRouting.check()) === 'up');
}, 300_000);

afterAll(async () => {
  await ctx?.close();
  await standby?.destroy();
}, 120_000);

const explainOf = async () => {
  const res = await a.get(`/api/settle/${settleId}/explain`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const data = res.body.data as { status: string; sections: { maintain: { agentAmount: string }[] } };
  return { status: data.status, maintain: data.sections.maintain.map((l) => l.agentAmount).sort() };
};
const summaryCount = async () => {
  const res = await a.get(`/api/settle/summary?settleMonth=${MONTH}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.count as number;
};
const maintainList = async () => {
  const res = await a.get(`/api/ledger/maintain?settleMonth=${MONTH}&sortField=agentAmount&sortOrder=DESC`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.list.map((r: { agentAmount: string }) => r.agentAmount);
};

describe('ledger-settlement reads off a hot standby', () => {
  it('explain, the month summary and the ledger list answer from the replica: rows it has not replayed are not there', async () => {
    expect(ctx.app.readRouting.status).toBe('up');
    expect(await explainOf()).toEqual({ status: 'CALCULATED', maintain: ['10.00'] });
    const replicaReads = await readMetric('csp_db_reads_total', 'replica');
    await standby.pauseReplay();
    try {
      const [, c2] = book.contracts as [number, number];
      await insertLedger(ctx, 'maintain_ledger', { agentId: book.fc, contractId: c2, settleMonth: MONTH, companyAmount: '8.00', agentAmount: '4.00' });
      await insertSettle(ctx, { agentId: book.other, settleMonth: MONTH });
      expect(await explainOf()).toEqual({ status: 'CALCULATED', maintain: ['10.00'] });
      expect(await summaryCount()).toBe(1);
      expect(await maintainList()).toEqual(['10.00']);
      // explain 1, summary 1, list 1 (the list's count and page share one target)
      expect(await readMetric('csp_db_reads_total', 'replica')).toBeGreaterThanOrEqual(replicaReads + 3);
      // the primary has them
      const primary = await ctx.pool.query(`SELECT count(*)::int AS n FROM settle_master WHERE settle_month = $1`, [MONTH]);
      expect(primary.rows[0].n).toBe(2);
    } finally {
      await standby.resumeReplay();
    }
    await standby.catchUp();
    expect(await explainOf()).toEqual({ status: 'CALCULATED', maintain: ['10.00', '4.00'] });
    expect(await summaryCount()).toBe(2);
    expect(await maintainList()).toEqual(['10.00', '4.00']);
  });

  it('read-your-writes: after a confirm the same user\'s explain waits for the replica and shows CONFIRMED', async () => {
    await standby.catchUp();
    await standby.pauseReplay();
    let resumed = false;
    try {
      const confirmed = await a.put(`/api/settle/${settleId}/confirm`);
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      // the replica is behind the confirm; it catches up while the read waits
      setTimeout(() => void standby.resumeReplay().then(() => (resumed = true)), 400);
      const [replicaReads, waits, primaryReads] = [
        await readMetric('csp_db_reads_total', 'replica'),
        await readMetric('csp_db_read_fallback_total', 'wait'),
        await readMetric('csp_db_reads_total', 'primary'),
      ];
      const started = Date.now();
      expect(await explainOf()).toEqual({ status: 'CONFIRMED', maintain: ['10.00', '4.00'] });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(await readMetric('csp_db_reads_total', 'replica')).toBe(replicaReads + 1);
      expect(await readMetric('csp_db_reads_total', 'primary')).toBe(primaryReads);
      expect(await readMetric('csp_db_read_fallback_total', 'wait')).toBe(waits);
      // the replica has replayed the confirm
      const onReplica = await ctx.app.readDb.selectFrom('settle_master').select('status').where('settle_id', '=', settleId).executeTakeFirstOrThrow();
      expect(onReplica.status).toBe('CONFIRMED');
    } finally {
      if (!resumed) await standby.resumeReplay();
    }
  });
});
