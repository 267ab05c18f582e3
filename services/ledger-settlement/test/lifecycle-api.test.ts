import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentToken,
  api,
  insertLedger,
  insertSettle,
  seedMiniBook,
  startContext,
  type Api,
  type Ctx,
  type MiniBook,
} from './api-helpers.js';

/**
 * Settlement lifecycle through the API (issue 15): period close, corrections, disputes and holds on a
 * tiny book seeded by SQL. TAX_RATE 3.3; pct(x, r) = x * r / 100 HALF_UP. M1 202501 gets closed; M2 202502
 * stays open and receives the corrections.
 */
const M1 = '202501';
const M2 = '202502';
let ctx: Ctx;
let a: Api;
let book: MiniBook;
let admin2: string;
const ids = { fcM1: 0, leaderM1: 0, fcM2: 0, leaderM2: 0, otherM2: 0, fcM2Ledger: 0, close: 0, correction: 0, dispute: 0 };

async function changeLogRows(table: string, recordId: number) {
  await ctx.app.changeLogWriter.flush();
  const { rows } = await ctx.pool.query<{ action: string; menu_code: string }>(
    `SELECT action, menu_code FROM data_change_log WHERE table_name = $1 AND record_id = $2 ORDER BY change_id`,
    [table, String(recordId)],
  );
  return rows.map((r) => `${r.menu_code} ${r.action}`);
}

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  admin2 = await ctx.tokenFor('ADMIN');
  const [c1, c2] = book.contracts as [number, number, number];
  // M1: fc recruit 1000.00 -> gross 1000.00, tax 33.00, net 967.00; the leader has an empty row
  await insertLedger(ctx, 'recruit_ledger', { agentId: book.fc, contractId: c1, settleMonth: M1, companyAmount: '2000.00', agentAmount: '1000.00' });
  ids.fcM1 = await insertSettle(ctx, { agentId: book.fc, settleMonth: M1, recruit: '1000.00', gross: '1000.00', tax: '33.00', net: '967.00' });
  ids.leaderM1 = await insertSettle(ctx, { agentId: book.leader, settleMonth: M1 });
  // M2: fc recruit 2000.00 -> gross 2000.00, tax 66.00, net 1934.00
  ids.fcM2Ledger = await insertLedger(ctx, 'recruit_ledger', { agentId: book.fc, contractId: c2, settleMonth: M2, companyAmount: '4000.00', agentAmount: '2000.00' });
  ids.fcM2 = await insertSettle(ctx, { agentId: book.fc, settleMonth: M2, recruit: '2000.00', gross: '2000.00', tax: '66.00', net: '1934.00' });
  ids.leaderM2 = await insertSettle(ctx, { agentId: book.leader, settleMonth: M2 });
  ids.otherM2 = await insertSettle(ctx, { agentId: book.other, settleMonth: M2 });
});

afterAll(async () => {
  await ctx?.close();
});

describe('period close', () => {
  it('refuses to close a month with CALCULATED settle rows, naming how many (E400)', async () => {
    const created = await a.post('/api/period-closes', { settleMonth: M1, note: 'January' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids.close = created.body.data.id;
    const check = (await a.get(`/api/period-closes/check?settleMonth=${M1}`)).body.data;
    expect(check).toEqual({
      settleMonth: M1,
      closeId: ids.close,
      status: 'OPEN',
      settleRows: 2,
      byStatus: { CALCULATED: 2, CONFIRMED: 0, HOLD: 0, PAID: 0 },
      blocking: 2,
      runInProgress: null,
      closable: false,
    });
    const res = await a.put(`/api/period-closes/${ids.close}/close`, {});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('E400');
    expect(res.body.message).toBe(
      '2 settle rows of 202501 are not CONFIRMED, HOLD or PAID (2 CALCULATED); settle them before closing',
    );
    expect((await a.post('/api/period-closes', { settleMonth: M1 })).body.code).toBe('B009');
  });

  it('closes once every row is CONFIRMED or HOLD, with the month totals', async () => {
    expect((await a.put(`/api/settle/${ids.fcM1}/confirm`)).status).toBe(200);
    expect((await a.post(`/api/settle/${ids.leaderM1}/hold`, { reason: 'documents', reasonCode: 'DOC_MISSING' })).status).toBe(200);
    const res = await a.post(`/api/period-closes/${ids.close}/close`, { note: 'closed for January' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      settleMonth: M1,
      status: 'CLOSED',
      settleCount: 2,
      grossTotal: '1000.00',
      taxTotal: '33.00',
      netTotal: '967.00',
      note: 'closed for January',
      reopenCount: 0,
    });
    expect(res.body.data.closedAt).not.toBeNull();
    expect((await a.put(`/api/period-closes/${ids.close}/close`, {})).body).toMatchObject({
      code: 'B001',
      message: 'Settle month 202501 is already closed',
    });
    expect(await changeLogRows('period_close', ids.close)).toEqual(['PERIOD_CLOSE CREATE', 'PERIOD_CLOSE UPDATE']);
  });

  it('a closed month refuses runs, confirm/hold/release and exception changes with B001 naming the month', async () => {
    const run = await a.post(`/api/batch/settlement/run?settleMonth=${M1}`);
    expect(run.status).toBe(400);
    expect(run.body).toMatchObject({ code: 'B001', message: 'Settle month 202501 is closed: a settlement run refused (reopen it first)' });
    const release = await a.put(`/api/settle/${ids.leaderM1}/release`);
    expect(release.body).toMatchObject({ code: 'B001', message: 'Settle month 202501 is closed: release refused (reopen it first)' });
    const hold = await a.put(`/api/settle/${ids.fcM1}/hold`, { reason: 'late' });
    expect(hold.body).toMatchObject({ code: 'B001', message: 'Settle month 202501 is closed: hold refused (reopen it first)' });
    // an exception row of a closed month cannot be written at all (V080 trigger)
    await expect(
      ctx.pool.query(
        `INSERT INTO exception_ledger (agent_id, settle_month, exception_code, direction, amount) VALUES ($1, $2, 'MISC_PLUS', 'PLUS', 1)`,
        [book.leader, M1],
      ),
    ).rejects.toThrow('settle month 202501 is closed');
    const statuses = await ctx.pool.query(`SELECT status FROM settle_master WHERE settle_month = $1 ORDER BY settle_id`, [M1]);
    expect(statuses.rows.map((r) => r.status)).toEqual(['CONFIRMED', 'HOLD']);
  });

  it('reopens with a reason only (E411 without), and closes again', async () => {
    const bad = await a.put(`/api/period-closes/${ids.close}/reopen`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('E411');
    const res = await a.put(`/api/period-closes/${ids.close}/reopen`, { reason: 'late carrier file' });
    expect(res.body.data).toMatchObject({ status: 'OPEN', reopenReason: 'late carrier file', reopenCount: 1 });
    expect((await a.put(`/api/period-closes/${ids.close}/reopen`, { reason: 'again' })).body.code).toBe('B001');
    expect((await a.put(`/api/period-closes/${ids.close}/close`, {})).body.data.status).toBe('CLOSED');
    const list = await a.get('/api/period-closes?status=CLOSED');
    expect(list.body.data.list.map((r: any) => r.settleMonth)).toEqual([M1]);
  });
});

describe('corrections', () => {
  it('refuses a correction without a reason, with a zero amount or for an unknown agent (E411)', async () => {
    const noReason = await a.post('/api/settle-corrections', { agentId: book.fc, originalMonth: M1, amount: '150.50' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.code).toBe('E411');
    expect(noReason.body.data.errors.map((e: any) => e.field)).toEqual(['reason']);
    const zero = await a.post('/api/settle-corrections', { agentId: book.fc, originalMonth: M1, amount: '0.00', reason: 'x' });
    expect(zero.body).toMatchObject({ code: 'E411', message: 'amount must not be 0' });
    const agent = await a.post('/api/settle-corrections', { agentId: 999999, originalMonth: M1, amount: '1.00', reason: 'x' });
    expect(agent.body.data.errors).toEqual([{ field: 'agentId', message: 'agent does not exist' }]);
    const source = await a.post('/api/settle-corrections', {
      agentId: book.fc,
      originalMonth: M1,
      amount: '1.00',
      reason: 'x',
      sourceTable: 'recruit_ledger',
      sourceId: ids.fcM2Ledger,
    });
    expect(source.body.data.errors).toEqual([{ field: 'sourceId', message: "is not a row of the correction's agent and original month" }]);
  });

  it('refuses approving your own correction (E403); another user books it into the first open month', async () => {
    const created = await a.post('/api/settle-corrections', {
      agentId: book.fc,
      originalMonth: M1,
      amount: '150.50',
      reason: 'missed bonus in January',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids.correction = created.body.data.id;
    const own = await a.put(`/api/settle-corrections/${ids.correction}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('E403');
    const res = await a.post(`/api/settle-corrections/${ids.correction}/approve`, { note: 'checked' }, admin2);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // 202501 is closed: booked into 202502
    expect(res.body.data).toMatchObject({ status: 'APPROVED', targetMonth: M2, amount: '150.50', correctionType: 'MANUAL', decisionNote: 'checked' });
    expect((await a.put(`/api/settle-corrections/${ids.correction}/approve`, {}, admin2)).body.code).toBe('B001');
    expect(await changeLogRows('settle_correction', ids.correction)).toEqual(['SETTLE_CORRECTION CREATE', 'SETTLE_CORRECTION APPROVE']);
  });

  it("counts the correction in the month's gross, tax and net at once, and explain shows its origin", async () => {
    // 2000.00 + 150.50 = 2150.50; tax = pct(2150.50, 3.3) = 70.9665 -> 70.97; net = 2079.53
    const row = (await a.get(`/api/settle/${ids.fcM2}`)).body.data;
    expect([row.grossAmount, row.taxAmount, row.netAmount]).toEqual(['2150.50', '70.97', '2079.53']);
    const e = (await a.get(`/api/settle/${ids.fcM2}/explain`)).body.data;
    expect(e.reconciles, JSON.stringify(e.mismatches)).toBe(true);
    expect(e.totals).toMatchObject({ recruit: '2000.00', correction: '150.50', gross: '2150.50', tax: '70.97', net: '2079.53' });
    expect(e.sections.correction).toEqual([
      expect.objectContaining({ correctionId: ids.correction, correctionType: 'MANUAL', originalMonth: M1, amount: '150.50', reason: 'missed bonus in January', disputeId: null }),
    ]);
    expect(e.formula).toContain('+ correction');
  });

  it('rejects and cancels only PENDING corrections', async () => {
    const c = (await a.post('/api/settle-corrections', { agentId: book.other, originalMonth: M2, amount: '-10.00', reason: 'double paid' })).body.data.id;
    expect((await a.put(`/api/settle-corrections/${c}/reject`, {}, admin2)).body.code).toBe('E411');
    const rejected = await a.put(`/api/settle-corrections/${c}/reject`, { reason: 'not double' }, admin2);
    expect(rejected.body.data).toMatchObject({ status: 'REJECTED', targetMonth: null, decisionNote: 'not double' });
    expect((await a.put(`/api/settle-corrections/${c}/cancel`, {})).body.code).toBe('B001');
    expect((await a.put(`/api/settle-corrections/${c}`, { amount: '-5.00' })).body.code).toBe('B001');
  });
});

describe('disputes', () => {
  let fcToken: string;
  beforeAll(async () => {
    // AGENT holds DISPUTE READ and CREATE from the seed (V087), row-scoped (agent-disputes.test.ts)
    fcToken = await agentToken(ctx, book.fc);
  });

  it("refuses an AGENT user's dispute on another agent's row (E403) and takes one on their own", async () => {
    const other = await a.post(
      '/api/disputes',
      { targetTable: 'settle_master', targetId: ids.otherM2, reasonCode: 'MISSING_COMMISSION', reasonText: 'not mine' },
      fcToken,
    );
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('E403');
    const own = await a.post(
      '/api/disputes',
      { targetTable: 'recruit_ledger', targetId: ids.fcM2Ledger, reasonCode: 'WRONG_RATE', reasonText: 'rate should be 12 %', claimedAmount: '-80' },
      fcToken,
    );
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data.held).toBe(false);
    ids.dispute = own.body.data.id;
    const mine = await a.get('/api/disputes', fcToken);
    expect(mine.body.data.list.map((d: any) => [d.disputeId, d.agentId, d.settleMonth, d.status, d.settleId, d.claimedAmount])).toEqual([
      [ids.dispute, book.fc, M2, 'OPEN', ids.fcM2, '-80.00'],
    ]);
  });

  it('goes OPEN -> IN_REVIEW -> APPROVED; approving with an amount creates its booked correction in the same step', async () => {
    expect((await a.put(`/api/disputes/${ids.dispute}/approve`, { note: 'ok', amount: '-80.00' }, admin2)).body.code).toBe('B001');
    const review = await a.put(`/api/disputes/${ids.dispute}/review`, { note: 'looking' });
    expect(review.body.data).toMatchObject({ status: 'IN_REVIEW', reviewNote: 'looking' });
    const res = await a.put(`/api/disputes/${ids.dispute}/approve`, { note: 'rate was 12 %', amount: '-80.00' }, admin2);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ status: 'APPROVED', approvedAmount: '-80.00', decisionNote: 'rate was 12 %', correctionStatus: 'APPROVED', correctionMonth: M2 });
    const c = (await a.get(`/api/settle-corrections/${d.correctionId}`)).body.data;
    expect(c).toMatchObject({ disputeId: ids.dispute, correctionType: 'DISPUTE', amount: '-80.00', status: 'APPROVED', targetMonth: M2, sourceTable: 'recruit_ledger', sourceId: ids.fcM2Ledger });
    // 2000.00 + 150.50 - 80.00 = 2070.50; tax = pct(2070.50, 3.3) = 68.3265 -> 68.33; net = 2002.17
    const row = (await a.get(`/api/settle/${ids.fcM2}`)).body.data;
    expect([row.grossAmount, row.taxAmount, row.netAmount]).toEqual(['2070.50', '68.33', '2002.17']);
    const e = (await a.get(`/api/settle/${ids.fcM2}/explain`)).body.data;
    expect(e.reconciles).toBe(true);
    expect(e.sections.correction.map((l: any) => [l.amount, l.correctionType, l.disputeId])).toEqual([
      ['150.50', 'MANUAL', null],
      ['-80.00', 'DISPUTE', ids.dispute],
    ]);
    expect((await a.put(`/api/disputes/${ids.dispute}/reject`, { note: 'late' }, admin2)).body.code).toBe('B001');
  });

  it('the user who raised a dispute does not decide it (E403)', async () => {
    const raised = await a.post('/api/disputes', { targetTable: 'settle_master', targetId: ids.otherM2, reasonCode: 'OTHER', reasonText: 'check' });
    await a.put(`/api/disputes/${raised.body.data.id}/review`, { note: 'n' });
    const own = await a.put(`/api/disputes/${raised.body.data.id}/reject`, { note: 'no' });
    expect(own.body.code).toBe('E403');
    expect((await a.put(`/api/disputes/${raised.body.data.id}/reject`, { note: 'no' }, admin2)).body.data.status).toBe('REJECTED');
  });
});

describe('holds with release conditions', () => {
  it('holds with a condition and lists why each row is still held', async () => {
    const bad = await a.post('/api/settle-holds', { settleId: ids.leaderM2, reason: 'x', condition: { type: 'UNTIL_DATE' } });
    expect(bad.body.data.errors).toEqual([{ field: 'condition.untilDate', message: 'is required for UNTIL_DATE' }]);
    const date = await a.post('/api/settle-holds', {
      settleId: ids.leaderM2,
      reason: 'wait for documents',
      reasonCode: 'DOC_MISSING',
      condition: { type: 'UNTIL_DATE', untilDate: '2020-01-01' },
    });
    expect(date.status, JSON.stringify(date.body)).toBe(200);
    const license = await a.post('/api/settle-holds', {
      settleId: ids.otherM2,
      reason: 'license expired',
      reasonCode: 'LICENSE',
      condition: { type: 'LICENSE_VALID' },
    });
    expect(license.status, JSON.stringify(license.body)).toBe(200);
    const today = (await ctx.pool.query(`SELECT current_date::text AS d`)).rows[0].d;
    const listRes = await a.get('/api/settle-holds?status=ACTIVE&sortField=holdId&sortOrder=ASC');
    expect(listRes.status, JSON.stringify(listRes.body)).toBe(200);
    const list = listRes.body.data.list;
    expect(list.map((h: any) => [h.settleId, h.reasonCode, h.conditionType, h.conditionMet, h.stillHeldBecause])).toEqual([
      [ids.leaderM1, 'DOC_MISSING', 'NONE', false, 'no release condition: released by hand only'],
      [ids.leaderM2, 'DOC_MISSING', 'UNTIL_DATE', true, 'condition met (2020-01-01 reached): the next run releases it'],
      [ids.otherM2, 'LICENSE', 'LICENSE_VALID', false, `no license valid on ${today}`],
    ]);
    expect((await a.get(`/api/settle/${ids.otherM2}`)).body.data).toMatchObject({ status: 'HOLD', holdReasonCode: 'LICENSE' });
  });

  it('a manual release closes the hold (MANUAL) and the row counts again', async () => {
    expect((await a.put(`/api/settle/${ids.leaderM2}/release`)).status).toBe(200);
    const h = (await a.get(`/api/settle-holds?settleId=${ids.leaderM2}`)).body.data.list[0];
    expect(h).toMatchObject({ status: 'RELEASED', releaseKind: 'MANUAL', conditionMet: null, stillHeldBecause: null });
  });
});
