import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, seedMiniBook, startContext, type Api, type Ctx, type MiniBook } from './api-helpers.js';

/**
 * The exception workflow checks the period close itself: a CLOSED month answers B001 naming the month
 * (DECISIONS "Settlement lifecycle") instead of the E400 the V080 trigger would give.
 */
const CLOSED = '202501';
let ctx: Ctx;
let a: Api;
let book: MiniBook;
let pendingId = 0;

const setMonth = (status: 'OPEN' | 'CLOSED') =>
  ctx.pool.query(
    `INSERT INTO period_close (settle_month, status, closed_at) VALUES ($1, $2, now())
     ON CONFLICT (settle_month) DO UPDATE SET status = EXCLUDED.status`,
    [CLOSED, status],
  );

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  const created = await a.post('/api/ledger/exception', { agentId: book.fc, settleMonth: CLOSED, exceptionCode: 'MISC_PLUS', amount: '40.00', reason: 'late bonus' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  pendingId = created.body.data.id;
  await setMonth('CLOSED');
});

afterAll(async () => {
  await ctx?.close();
});

describe('exceptions of a closed month', () => {
  it('registering one is refused with B001 naming the month', async () => {
    const res = await a.post('/api/ledger/exception', { agentId: book.fc, settleMonth: CLOSED, exceptionCode: 'MISC_PLUS', amount: '10.00', reason: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'B001', message: 'Settle month 202501 is closed: registering an exception refused (reopen it first)' });
    const { rows } = await ctx.pool.query(`SELECT count(*)::int AS n FROM exception_ledger WHERE settle_month = $1`, [CLOSED]);
    expect(rows[0].n).toBe(1);
  });

  it('approving or rejecting a pending one is refused with B001; once reopened it is approved', async () => {
    for (const [verb, body, what] of [
      ['approve', undefined, 'exception approval'],
      ['reject', { reason: 'no' }, 'exception rejection'],
    ] as const) {
      const res = await a.post(`/api/ledger/exception/${pendingId}/${verb}`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'B001', message: `Settle month 202501 is closed: ${what} refused (reopen it first)` });
    }
    const row = await ctx.pool.query(`SELECT approve_status FROM exception_ledger WHERE ledger_id = $1`, [pendingId]);
    expect(row.rows[0].approve_status).toBe('PENDING');
    await setMonth('OPEN');
    expect((await a.put(`/api/ledger/exception/${pendingId}/approve`)).status).toBe(200);
    const approved = await ctx.pool.query(`SELECT approve_status FROM exception_ledger WHERE ledger_id = $1`, [pendingId]);
    expect(approved.rows[0].approve_status).toBe('APPROVED');
  });
});
