import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentToken,
  api,
  insertLedger,
  insertSettle,
  seedMiniBook,
  startContext,
  statusesOf,
  type Api,
  type Ctx,
  type MiniBook,
} from './api-helpers.js';

const M = '202501';
let ctx: Ctx;
let a: Api;
let book: MiniBook;
const ids = { fcSettle: 0, leaderSettle: 0, otherSettle: 0, cb: 0 };

async function exception(
  agentId: number,
  code: string,
  direction: 'PLUS' | 'MINUS',
  amount: string,
  approve: string,
  extra = '',
) {
  await ctx.pool.query(
    `INSERT INTO exception_ledger (agent_id, settle_month, exception_code, direction, amount, reason, approve_status, reject_reason)
     VALUES ($1, $2, $3, $4, $5, 'test', $6, $7)`,
    [agentId, M, code, direction, amount, approve, extra || null],
  );
}

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  const [c1, c2, c3] = book.contracts as [number, number, number];
  // FC: recruit 5000.00 + 2500.50, maintain 1000.25, exceptions +300 -100 (approved), chargeback 200
  await insertLedger(ctx, 'recruit_ledger', {
    agentId: book.fc,
    contractId: c1,
    settleMonth: M,
    companyAmount: '10000.00',
    agentAmount: '5000.00',
  });
  await insertLedger(ctx, 'recruit_ledger', {
    agentId: book.fc,
    contractId: c2,
    settleMonth: M,
    companyAmount: '5001.00',
    agentAmount: '2500.50',
  });
  await insertLedger(ctx, 'maintain_ledger', {
    agentId: book.fc,
    contractId: c1,
    settleMonth: M,
    companyAmount: '2000.50',
    agentAmount: '1000.25',
    calcBasis: {
      step: 'calcMaintain',
      succession: { successionId: 9, fromAgentId: book.other, toAgentId: book.fc, effectiveMonth: '202412' },
    },
  });
  await insertLedger(ctx, 'recruit_ledger', {
    agentId: book.other,
    contractId: c3,
    settleMonth: M,
    companyAmount: '2000.00',
    agentAmount: '1000.00',
    status: 'PAID',
  });
  await exception(book.fc, 'BONUS_SPECIAL', 'PLUS', '300.00', 'APPROVED');
  await exception(book.fc, 'PENALTY', 'MINUS', '100.00', 'APPROVED');
  await exception(book.fc, 'MISC_PLUS', 'PLUS', '50.00', 'PENDING');
  await exception(book.fc, 'MISC_MINUS', 'MINUS', '20.00', 'REJECTED', 'duplicate');
  const cb = await ctx.pool.query<{ cb_id: number }>(
    `INSERT INTO chargeback (contract_id, agent_id, settle_month, lapse_month, lapse_month_diff, base_amount, cb_rate, cb_amount,
       installment_seq, installment_total, calc_basis)
     VALUES ($1, $2, $3, $3, 2, '400.00', '100', '200.00', 1, 2, '{"cbRuleId": 1}') RETURNING cb_id`,
    [c2, book.fc, M],
  );
  ids.cb = Number(cb.rows[0]!.cb_id);
  const { rows: rules } = await ctx.pool.query<{ override_id: number }>(
    `INSERT INTO override_rule (from_grade, to_grade, override_pct, effective_from) VALUES (1, 3, 5, '2000-01-01') RETURNING override_id`,
  );
  await ctx.pool.query(
    `INSERT INTO override_settle (settle_month, from_agent_id, to_agent_id, override_rule_id, base_amount, override_pct, override_amount, capped, calc_basis)
     VALUES ($1, $2, $3, $4, '8500.75', '5', '425.04', false, '{"capAmount": null, "uncappedAmount": "425.04"}')`,
    [M, book.fc, book.leader, rules[0]!.override_id],
  );
  // gross = 7500.50 + 1000.25 + 0 + 300.00 - 200.00 - 100.00 = 8500.75; tax = pct(8500.75, 3.3) = 280.52475 -> 280.52
  ids.fcSettle = await insertSettle(ctx, {
    agentId: book.fc,
    settleMonth: M,
    recruit: '7500.50',
    maintain: '1000.25',
    plus: '300.00',
    minus: '100.00',
    chargeback: '200.00',
    gross: '8500.75',
    tax: '280.52',
    net: '8220.23',
  });
  // 425.04 x 3.3 % = 14.02632 -> 14.03
  ids.leaderSettle = await insertSettle(ctx, {
    agentId: book.leader,
    settleMonth: M,
    override: '425.04',
    gross: '425.04',
    tax: '14.03',
    net: '411.01',
  });
  ids.otherSettle = await insertSettle(ctx, {
    agentId: book.other,
    settleMonth: M,
    recruit: '1000.00',
    gross: '1000.00',
    tax: '33.00',
    net: '967.00',
    status: 'PAID',
  });
});

afterAll(async () => {
  await ctx?.close();
});

describe('settlement list, detail and summary', () => {
  it('lists with agent and organization names, money as two-place strings, filtered by month, agent, org and status', async () => {
    const all = await a.get(`/api/settle?settleMonth=${M}`);
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(3);
    const fc = all.body.data.list.find((r: any) => r.agentId === book.fc);
    expect(fc).toMatchObject({
      settleId: ids.fcSettle,
      agentName: 'Kim FC',
      orgId: book.teamId,
      orgName: 'Team A',
      settleMonth: M,
      recruitTotal: '7500.50',
      maintainTotal: '1000.25',
      overrideTotal: '0.00',
      exceptionPlus: '300.00',
      exceptionMinus: '100.00',
      chargebackTotal: '200.00',
      grossAmount: '8500.75',
      taxAmount: '280.52',
      netAmount: '8220.23',
      status: 'CALCULATED',
      statusName: '계산 완료',
    });
    expect(
      (await a.get(`/api/settle?orgId=${book.teamId}`)).body.data.list.map((r: any) => r.agentId).sort(),
    ).toEqual([book.fc, book.leader].sort());
    expect(
      (await a.get(`/api/settle?agentId=${book.other}`)).body.data.list.map((r: any) => r.settleId),
    ).toEqual([ids.otherSettle]);
    expect((await a.get(`/api/settle?status=PAID`)).body.data.list.map((r: any) => r.settleId)).toEqual([
      ids.otherSettle,
    ]);
    expect((await a.get(`/api/settle?settleMonth=202502`)).body.data.total).toBe(0);
    expect((await a.get(`/api/settle?settleMonth=2025-01`)).body.code).toBe('E411');
    expect((await a.get(`/api/settle?sortField=evil;drop`)).body.code).toBe('E411');
  });

  it('returns one settlement by id and E404 for an unknown one', async () => {
    const res = await a.get(`/api/settle/${ids.leaderSettle}`);
    expect(res.body.data).toMatchObject({
      settleId: ids.leaderSettle,
      agentName: 'Lee Leader',
      overrideTotal: '425.04',
      netAmount: '411.01',
    });
    expect((await a.get('/api/settle/999999')).body.code).toBe('E404');
  });

  it('summarises a month: counts per status and exact totals of every money column', async () => {
    const res = await a.get(`/api/settle/summary?settleMonth=${M}`);
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(3);
    // recruit 7500.50 + 1000.00; gross 8500.75 + 425.04 + 1000.00; tax 280.52 + 14.03 + 33.00; net 8220.23 + 411.01 + 967.00
    expect(res.body.data.totals).toEqual({
      recruit: '8500.50',
      maintain: '1000.25',
      override: '425.04',
      exceptionPlus: '300.00',
      exceptionMinus: '100.00',
      chargeback: '200.00',
      correction: '0.00',
      other: '0.00',
      gross: '9925.79',
      tax: '327.55',
      net: '9598.24',
    });
    const byStatus = Object.fromEntries(res.body.data.byStatus.map((s: any) => [s.status, s.count]));
    expect(byStatus).toEqual({ CALCULATED: 2, CONFIRMED: 0, HOLD: 0, PAID: 1 });
    expect(res.body.data.byStatus.find((s: any) => s.status === 'PAID').totals.net).toBe('967.00');
    expect((await a.get('/api/settle/summary')).body.code).toBe('E411');
  });
});

describe('explain', () => {
  it('lists every line behind the figures and adds up exactly to the settle row', async () => {
    const res = await a.get(`/api/settle/${ids.fcSettle}/explain`);
    expect(res.status).toBe(200);
    const e = res.body.data;
    expect(e).toMatchObject({
      settleId: ids.fcSettle,
      agentId: book.fc,
      agentName: 'Kim FC',
      settleMonth: M,
      status: 'CALCULATED',
      reconciles: true,
      mismatches: [],
    });
    expect(e.sections.recruit.map((l: any) => l.agentAmount)).toEqual(['5000.00', '2500.50']);
    expect(e.sections.maintain).toHaveLength(1);
    expect(e.sections.maintain[0]).toMatchObject({
      agentAmount: '1000.25',
      successionFrom: {
        successionId: 9,
        fromAgentId: book.other,
        fromAgentName: 'Park Other',
        effectiveMonth: '202412',
      },
    });
    expect(e.sections.exceptionPlus.map((l: any) => [l.exceptionCode, l.amount])).toEqual([
      ['BONUS_SPECIAL', '300.00'],
    ]);
    expect(e.sections.exceptionMinus.map((l: any) => [l.exceptionCode, l.amount])).toEqual([
      ['PENALTY', '100.00'],
    ]);
    expect(e.sections.excluded.map((l: any) => [l.exceptionCode, l.excludedBecause])).toEqual([
      ['MISC_PLUS', 'awaiting approval: only APPROVED exceptions count'],
      ['MISC_MINUS', 'rejected: duplicate'],
    ]);
    expect(e.sections.chargeback).toEqual([
      expect.objectContaining({
        cbId: ids.cb,
        installmentSeq: 1,
        installmentTotal: 2,
        baseAmount: '400.00',
        cbRate: '100',
        cbAmount: '200.00',
        basis: { cbRuleId: 1 },
      }),
    ]);
    expect(e.totals).toEqual({
      recruit: '7500.50',
      maintain: '1000.25',
      override: '0.00',
      exceptionPlus: '300.00',
      exceptionMinus: '100.00',
      chargeback: '200.00',
      gross: '8500.75',
      taxRate: '3.3',
      tax: '280.52',
      net: '8220.23',
      correction: '0.00',
      other: '0.00',
    });
    expect(e.formula).toBe(
      'gross = recruit + maintain + override + exceptionPlus - chargeback - exceptionMinus; tax = pct(gross, TAX_RATE); net = gross - tax',
    );
  });

  it('shows the overrides a manager receives, and reports a stored figure that the lines do not explain', async () => {
    const leader = (await a.get(`/api/settle/${ids.leaderSettle}/explain`)).body.data;
    expect(leader.sections.override).toEqual([
      expect.objectContaining({
        fromAgentId: book.fc,
        fromAgentName: 'Kim FC',
        baseAmount: '8500.75',
        overridePct: '5',
        overrideAmount: '425.04',
        capped: false,
        capAmount: null,
      }),
    ]);
    expect(leader.reconciles).toBe(true);
    await ctx.pool.query(`UPDATE settle_master SET maintain_total = '1.00' WHERE settle_id = $1`, [
      ids.otherSettle,
    ]);
    const other = (await a.get(`/api/settle/${ids.otherSettle}/explain`)).body.data;
    expect(other.reconciles).toBe(false);
    expect(other.mismatches).toEqual([{ field: 'maintain', explained: '0.00', stored: '1.00' }]);
    await ctx.pool.query(`UPDATE settle_master SET maintain_total = '0.00' WHERE settle_id = $1`, [
      ids.otherSettle,
    ]);
  });
});

describe('confirm, hold and release', () => {
  it('confirm moves CALCULATED to CONFIRMED with the agent month ledger rows; a second confirm is B001', async () => {
    const res = await a.put(`/api/settle/${ids.fcSettle}/confirm`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('0000');
    const row = (await a.get(`/api/settle/${ids.fcSettle}`)).body.data;
    expect(row.status).toBe('CONFIRMED');
    expect(row.confirmedBy).toBeTypeOf('number');
    expect(row.confirmedAt).not.toBeNull();
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1', [book.fc])).toEqual([
      'CONFIRMED',
      'CONFIRMED',
    ]);
    expect(await statusesOf(ctx, 'maintain_ledger', 'agent_id = $1', [book.fc])).toEqual(['CONFIRMED']);
    expect(await statusesOf(ctx, 'chargeback', 'agent_id = $1', [book.fc])).toEqual(['CONFIRMED']);
    // the override the FC generated belongs to the leader's month, not to the FC's
    expect(await statusesOf(ctx, 'override_settle', 'from_agent_id = $1', [book.fc])).toEqual(['CALCULATED']);

    const again = await a.put(`/api/settle/${ids.fcSettle}/confirm`);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, code: 'B001' });
  });

  it('hold needs a reason, accepts CALCULATED or CONFIRMED, and puts the ledger rows on HOLD', async () => {
    expect((await a.put(`/api/settle/${ids.fcSettle}/hold`, {})).body.code).toBe('E411');
    expect(
      (await a.put(`/api/settle/${ids.fcSettle}/hold`, { reason: 'x', reasonCode: 'NOPE' })).body.code,
    ).toBe('E411');
    const res = await a.put(`/api/settle/${ids.fcSettle}/hold`, {
      reason: 'documents missing',
      reasonCode: 'DOC_MISSING',
    });
    expect(res.status).toBe(200);
    const row = (await a.get(`/api/settle/${ids.fcSettle}`)).body.data;
    expect(row).toMatchObject({
      status: 'HOLD',
      holdReason: 'documents missing',
      holdReasonCode: 'DOC_MISSING',
    });
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1', [book.fc])).toEqual(['HOLD', 'HOLD']);
    expect(await statusesOf(ctx, 'maintain_ledger', 'agent_id = $1', [book.fc])).toEqual(['HOLD']);

    const leader = await a.put(`/api/settle/${ids.leaderSettle}/hold`, { reason: 'investigation' });
    expect(leader.status).toBe(200);
    expect(await statusesOf(ctx, 'override_settle', 'to_agent_id = $1', [book.leader])).toEqual(['HOLD']);
  });

  it('hold on a PAID settlement and release or confirm of a HOLD one are refused with B001', async () => {
    expect((await a.put(`/api/settle/${ids.otherSettle}/hold`, { reason: 'late' })).body.code).toBe('B001');
    expect((await a.put(`/api/settle/${ids.fcSettle}/confirm`)).body.code).toBe('B001');
    expect((await a.put(`/api/settle/${ids.otherSettle}/release`)).body.code).toBe('B001');
    expect((await a.put('/api/settle/999999/release')).body.code).toBe('E404');
  });

  it('release moves HOLD back to CALCULATED, clears the hold and the earlier confirmation, and frees the ledger rows', async () => {
    const res = await a.put(`/api/settle/${ids.fcSettle}/release`);
    expect(res.status).toBe(200);
    const row = (await a.get(`/api/settle/${ids.fcSettle}`)).body.data;
    expect(row).toMatchObject({
      status: 'CALCULATED',
      holdReason: null,
      holdReasonCode: null,
      confirmedBy: null,
      confirmedAt: null,
    });
    expect(row.releasedAt).not.toBeNull();
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1', [book.fc])).toEqual([
      'CALCULATED',
      'CALCULATED',
    ]);
    expect(await statusesOf(ctx, 'chargeback', 'agent_id = $1', [book.fc])).toEqual(['CALCULATED']);
    expect((await a.put(`/api/settle/${ids.fcSettle}/release`)).body.code).toBe('B001');
    await a.put(`/api/settle/${ids.leaderSettle}/release`);
    expect(await statusesOf(ctx, 'override_settle', 'to_agent_id = $1', [book.leader])).toEqual([
      'CALCULATED',
    ]);
  });

  it('refuses every move while a settlement run of the month is in progress (B010)', async () => {
    const { rows } = await ctx.pool.query<{ job_log_id: number }>(
      `INSERT INTO batch_job_log (job_name, settle_month, status) VALUES ('SETTLEMENT', $1, 'RUNNING') RETURNING job_log_id`,
      [M],
    );
    try {
      const res = await a.put(`/api/settle/${ids.fcSettle}/confirm`);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('B010');
      expect((await a.put(`/api/settle/${ids.fcSettle}/hold`, { reason: 'x' })).body.code).toBe('B010');
      expect((await a.get(`/api/settle/${ids.fcSettle}`)).body.data.status).toBe('CALCULATED');
    } finally {
      await ctx.pool.query(`UPDATE batch_job_log SET status = 'FAILED' WHERE job_log_id = $1`, [
        rows[0]!.job_log_id,
      ]);
    }
  });

  it('writes a change-log row per move', async () => {
    await (ctx.app as any).changeLogWriter.flush();
    const { rows } = await ctx.pool.query(
      `SELECT action, count(*)::int AS n FROM data_change_log WHERE table_name = 'settle_master' AND record_id = $1 GROUP BY action ORDER BY action`,
      [ids.fcSettle],
    );
    expect(rows).toEqual([
      { action: 'APPROVE', n: 1 },
      { action: 'UPDATE', n: 2 },
    ]);
  });
});

describe('AGENT users', () => {
  it('see only their own settlement rows, summary and explain', async () => {
    const token = await agentToken(ctx, book.fc);
    const list = await a.get(`/api/settle?settleMonth=${M}`, token);
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((r: any) => r.agentId)).toEqual([book.fc]);
    expect((await a.get(`/api/settle?agentId=${book.other}`, token)).body.data.total).toBe(0);
    expect((await a.get(`/api/settle/${ids.fcSettle}`, token)).status).toBe(200);
    expect((await a.get(`/api/settle/${ids.otherSettle}`, token)).body.code).toBe('E404');
    expect((await a.get(`/api/settle/${ids.fcSettle}/explain`, token)).body.data.reconciles).toBe(true);
    expect((await a.get(`/api/settle/${ids.leaderSettle}/explain`, token)).body.code).toBe('E404');
    expect((await a.get(`/api/settle/summary?settleMonth=${M}`, token)).body.data.count).toBe(1);
  });

  it('without a linked agent see nothing, and cannot confirm (E403)', async () => {
    const token = await agentToken(ctx, null);
    expect((await a.get(`/api/settle?settleMonth=${M}`, token)).body.data.total).toBe(0);
    const res = await a.put(`/api/settle/${ids.fcSettle}/confirm`, undefined, await agentToken(ctx, book.fc));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('E403');
  });
});
