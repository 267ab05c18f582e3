import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentToken, api, insertLedger, insertSettle, seedMiniBook, startContext, type Api, type Ctx, type MiniBook } from './api-helpers.js';

/**
 * Issue 23.8, DECISIONS "Settlement lifecycle" (agents serve themselves): an AGENT user raises a dispute on its own
 * settle row or ledger line and reads its own disputes, with the seeded grants only (V087: DISPUTE READ and CREATE);
 * another agent's row is E403, another agent's dispute is not visible, the back-office moves stay E403.
 */
const M = '202503';
let ctx: Ctx;
let a: Api;
let book: MiniBook;
let fcToken: string;
const ids = { fcSettle: 0, fcLedger: 0, otherSettle: 0, otherLedger: 0, ownOnSettle: 0, ownOnLedger: 0, adminOnOther: 0 };

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  const [c1, , c3] = book.contracts as [number, number, number];
  ids.fcLedger = await insertLedger(ctx, 'recruit_ledger', { agentId: book.fc, contractId: c1, settleMonth: M, companyAmount: '2000.00', agentAmount: '1000.00' });
  ids.fcSettle = await insertSettle(ctx, { agentId: book.fc, settleMonth: M, recruit: '1000.00', gross: '1000.00', tax: '33.00', net: '967.00' });
  ids.otherLedger = await insertLedger(ctx, 'recruit_ledger', { agentId: book.other, contractId: c3, settleMonth: M, companyAmount: '600.00', agentAmount: '300.00' });
  ids.otherSettle = await insertSettle(ctx, { agentId: book.other, settleMonth: M, recruit: '300.00', gross: '300.00', tax: '9.90', net: '290.10' });
  fcToken = await agentToken(ctx, book.fc);
});

afterAll(async () => {
  await ctx?.close();
});

const raise = (targetTable: string, targetId: number, token?: string, extra: Record<string, unknown> = {}) =>
  a.post('/api/disputes', { targetTable, targetId, reasonCode: 'WRONG_AMOUNT', reasonText: 'please check', ...extra }, token);

describe('AGENT disputes on its own rows', () => {
  it('seeds DISPUTE READ and CREATE (nothing else) for the AGENT role', async () => {
    const { rows } = await ctx.pool.query(`
      SELECT rmp.perm_code FROM role_menu_permission rmp
      JOIN role r ON r.role_id = rmp.role_id JOIN menu m ON m.menu_id = rmp.menu_id
      WHERE r.role_code = 'AGENT' AND m.menu_code = 'DISPUTE' AND rmp.is_granted = 'Y' ORDER BY rmp.perm_code`);
    expect(rows.map((r) => r.perm_code)).toEqual(['CREATE', 'READ']);
  });

  it('raises a dispute on its own settle row and on its own ledger line, each tied to its settle row', async () => {
    const onSettle = await raise('settle_master', ids.fcSettle, fcToken, { claimedAmount: '50.00' });
    expect(onSettle.status, JSON.stringify(onSettle.body)).toBe(200);
    expect(onSettle.body.data.held).toBe(false);
    ids.ownOnSettle = onSettle.body.data.id;
    const onLedger = await raise('recruit_ledger', ids.fcLedger, fcToken);
    expect(onLedger.status, JSON.stringify(onLedger.body)).toBe(200);
    ids.ownOnLedger = onLedger.body.data.id;
    const mine = await a.get('/api/disputes?sortField=disputeId&sortOrder=ASC', fcToken);
    expect(mine.status).toBe(200);
    expect(mine.body.data.list.map((d: any) => [d.disputeId, d.agentId, d.settleMonth, d.targetTable, d.targetId, d.settleId, d.status, d.claimedAmount])).toEqual([
      [ids.ownOnSettle, book.fc, M, 'settle_master', ids.fcSettle, ids.fcSettle, 'OPEN', '50.00'],
      [ids.ownOnLedger, book.fc, M, 'recruit_ledger', ids.fcLedger, ids.fcSettle, 'OPEN', null],
    ]);
    expect((await a.get(`/api/disputes/${ids.ownOnSettle}`, fcToken)).body.data).toMatchObject({ agentId: book.fc, createdBy: expect.any(Number) });
  });

  it("refuses another agent's settle row and ledger line with E403 and stores nothing", async () => {
    for (const [table, id] of [['settle_master', ids.otherSettle], ['recruit_ledger', ids.otherLedger]] as const) {
      const res = await raise(table, id, fcToken);
      expect([res.status, res.body.code], `${table} ${id}`).toEqual([403, 'E403']);
    }
    // a row that does not exist is refused the same way: an agent learns nothing about other agents' ids
    expect((await raise('recruit_ledger', 999_999, fcToken)).body.code).toBe('E403');
    const { rows } = await ctx.pool.query(`SELECT count(*)::int AS n FROM commission_dispute WHERE agent_id = $1`, [book.other]);
    expect(rows[0].n).toBe(0);
  });

  it("does not show another agent's dispute and keeps review, approval and holds with the back office (E403)", async () => {
    const byAdmin = await raise('settle_master', ids.otherSettle);
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    ids.adminOnOther = byAdmin.body.data.id;
    expect((await a.get(`/api/disputes?agentId=${book.other}`, fcToken)).body.data.total).toBe(0);
    expect((await a.get(`/api/disputes/${ids.adminOnOther}`, fcToken)).body.code).toBe('E404');
    expect((await a.get('/api/disputes')).body.data.total).toBe(3);

    const review = await a.put(`/api/disputes/${ids.ownOnSettle}/review`, { note: 'mine' }, fcToken);
    expect([review.status, review.body.code]).toEqual([403, 'E403']);
    const approve = await a.put(`/api/disputes/${ids.ownOnSettle}/approve`, { note: 'mine', amount: '50.00' }, fcToken);
    expect([approve.status, approve.body.code]).toEqual([403, 'E403']);
    const held = await raise('settle_master', ids.fcSettle, fcToken, { holdSettlement: true });
    expect([held.status, held.body.code]).toEqual([403, 'E403']);
    expect((await a.get(`/api/settle/${ids.fcSettle}`)).body.data.status).toBe('CALCULATED');
  });

  it('refuses an AGENT user without a linked agent (E403)', async () => {
    const res = await raise('settle_master', ids.fcSettle, await agentToken(ctx, null));
    expect([res.status, res.body.code]).toEqual([403, 'E403']);
  });
});
