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

/**
 * POST|PUT /api/settle/confirm-month on hand-built rows. Month 202503, seven agents:
 *
 * | agent     | settle row  | other facts                                   | outcome            |
 * | fc        | CALCULATED  | 2 recruit CALCULATED, 1 maintain HOLD, 1 chargeback CALCULATED, override to it | confirmed |
 * | leader    | HOLD        | 1 recruit HOLD                                | skippedHold        |
 * | other     | CALCULATED  | OPEN dispute of the month, 1 recruit          | skippedDispute     |
 * | a4        | CONFIRMED   | 1 recruit CONFIRMED                            | alreadyConfirmed   |
 * | a5        | PAID        | 1 recruit PAID                                 | alreadyPaid        |
 * | a6        | CALCULATED  | REJECTED dispute (closed), 1 recruit          | confirmed          |
 * | a7        | CALCULATED  | PENDING SETTLE approval request, 1 recruit    | confirmed          |
 *
 * confirmed = fc + a6 + a7 = 3; ledger rows moved: recruit 2 (fc) + 1 (a6) + 1 (a7) = 4, maintain 1 (fc's HOLD
 * row), override_settle 1 (received by fc), chargeback 1 (fc) — the rows the single confirm moves.
 */
const M = '202503';
let ctx: Ctx;
let a: Api;
let book: MiniBook;
const agents: Record<string, number> = {};
const settle: Record<string, number> = {};

async function newAgent(orgId: number, name: string): Promise<number> {
  const { rows } = await ctx.pool.query<{ agent_id: number }>(
    `INSERT INTO agent (org_id, grade_id, agent_name) VALUES ($1, 1, $2) RETURNING agent_id`,
    [orgId, name],
  );
  return Number(rows[0]!.agent_id);
}

let contractSeq = 9000;
async function recruit(agentId: number, month: string, status = 'CALCULATED', table: 'recruit_ledger' | 'maintain_ledger' = 'recruit_ledger') {
  contractSeq += 1;
  return insertLedger(ctx, table, { agentId, contractId: contractSeq, settleMonth: month, companyAmount: '200.00', agentAmount: '100.00', status });
}

async function dispute(agentId: number, month: string, status: string) {
  await ctx.pool.query(
    `INSERT INTO commission_dispute (agent_id, settle_month, target_table, target_id, reason_code, reason_text, status)
     VALUES ($1, $2, 'settle_master', 0, 'WRONG_AMOUNT', 'too low', $3)`,
    [agentId, month, status],
  );
}

const statusOf = async (settleId: number) =>
  (await ctx.pool.query<{ status: string }>('SELECT status FROM settle_master WHERE settle_id = $1', [settleId])).rows[0]!.status;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  Object.assign(agents, {
    fc: book.fc,
    leader: book.leader,
    other: book.other,
    a4: await newAgent(book.otherTeamId, 'Agent Four'),
    a5: await newAgent(book.otherTeamId, 'Agent Five'),
    a6: await newAgent(book.teamId, 'Agent Six'),
    a7: await newAgent(book.teamId, 'Agent Seven'),
  });
  const status = { fc: 'CALCULATED', leader: 'HOLD', other: 'CALCULATED', a4: 'CONFIRMED', a5: 'PAID', a6: 'CALCULATED', a7: 'CALCULATED' } as const;
  for (const [key, s] of Object.entries(status)) {
    settle[key] = await insertSettle(ctx, { agentId: agents[key]!, settleMonth: M, recruit: '100.00', gross: '100.00', net: '100.00', status: s });
  }
  // fc: two CALCULATED recruit rows, a maintain row left HOLD, a chargeback, an override it receives
  await recruit(agents.fc!, M);
  await recruit(agents.fc!, M);
  await recruit(agents.fc!, M, 'HOLD', 'maintain_ledger');
  await ctx.pool.query(
    `INSERT INTO chargeback (contract_id, agent_id, settle_month, lapse_month, lapse_month_diff, base_amount, cb_rate, cb_amount,
       installment_seq, installment_total, calc_basis)
     VALUES ($1, $2, $3, $3, 2, '400.00', '100', '200.00', 1, 1, '{}')`,
    [book.contracts[0], agents.fc, M],
  );
  const { rows: rules } = await ctx.pool.query<{ override_id: number }>(
    `INSERT INTO override_rule (from_grade, to_grade, override_pct, effective_from) VALUES (1, 3, 5, '2000-01-01') RETURNING override_id`,
  );
  await ctx.pool.query(
    `INSERT INTO override_settle (settle_month, from_agent_id, to_agent_id, override_rule_id, base_amount, override_pct, override_amount)
     VALUES ($1, $2, $3, $4, '100.00', '5', '5.00')`,
    [M, agents.a6, agents.fc, rules[0]!.override_id],
  );
  await recruit(agents.leader!, M, 'HOLD');
  await recruit(agents.other!, M);
  await dispute(agents.other!, M, 'OPEN');
  await recruit(agents.a4!, M, 'CONFIRMED');
  await recruit(agents.a5!, M, 'PAID');
  await recruit(agents.a6!, M);
  await dispute(agents.a6!, M, 'REJECTED');
  await recruit(agents.a7!, M);
  const line = await ctx.pool.query<{ line_id: number }>(`SELECT line_id FROM approval_line WHERE line_code = 'SETTLE_DEFAULT'`);
  await ctx.pool.query(
    `INSERT INTO approval_request (target_type, target_id, line_id, line_code, step_count, title, requested_by)
     VALUES ('SETTLE', $1, $2, 'SETTLE_DEFAULT', 1, 'confirm a7', 1)`,
    [settle.a7, line.rows[0]!.line_id],
  );
  // an other-commission row (appointment allowance) of fc follows its settlement like the recruit rows
  await ctx.pool.query(
    `INSERT INTO other_commission_ledger (commission_type, agent_id, settle_month, base_amount, agent_amount) VALUES ('APPOINTMENT', $1, $2, '50.00', '50.00')`,
    [agents.fc, M],
  );
  // another month of fc: never touched by a confirm of 202503
  settle.fcApril = await insertSettle(ctx, { agentId: agents.fc!, settleMonth: '202504', gross: '1.00', net: '1.00' });
  await recruit(agents.fc!, '202504');
});

afterAll(async () => {
  await ctx?.close();
});

describe('month-wide confirm', () => {
  it('refuses a user without SETTLE_LIST APPROVE (E403) and changes nothing', async () => {
    const res = await a.post('/api/settle/confirm-month', { settleMonth: M }, await agentToken(ctx, agents.fc!));
    expect(res.status).toBe(403);
    expect(await statusOf(settle.fc!)).toBe('CALCULATED');
  });

  it('confirms the CALCULATED rows and their ledger rows in one call, skipping HOLD and open disputes, with exact counts', async () => {
    const res = await a.post('/api/settle/confirm-month', { settleMonth: M });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      settleMonth: M,
      total: 7,
      confirmed: 3,
      skippedHold: 1,
      skippedDispute: 1,
      alreadyConfirmed: 1,
      alreadyPaid: 1,
      ledgerRows: { recruit_ledger: 4, maintain_ledger: 1, override_settle: 1, other_commission_ledger: 1, chargeback: 1 },
      approval: { lines: ['SETTLE_DEFAULT'], required: false, openRequests: 1 },
    });
    expect(res.body.message).toBe(
      '3 settlement(s) of 202503 confirmed; skipped 1 on HOLD and 1 with an open dispute; 1 already CONFIRMED, 1 PAID; ' +
        'SETTLE approval line(s) SETTLE_DEFAULT are optional and were not waited for (1 confirmed row(s) had a PENDING approval request)',
    );

    const { rows } = await ctx.pool.query<{ agent_id: number; status: string; confirmed: boolean; version: number }>(
      `SELECT agent_id, status, confirmed_by IS NOT NULL AND confirmed_at IS NOT NULL AS confirmed, version
       FROM settle_master WHERE settle_month = $1`,
      [M],
    );
    const byAgent = Object.fromEntries(rows.map((r) => [Number(r.agent_id), [r.status, r.confirmed, r.version]]));
    expect(Object.fromEntries(Object.entries(agents).map(([k, id]) => [k, byAgent[id]]))).toEqual({
      fc: ['CONFIRMED', true, 1],
      leader: ['HOLD', false, 0],
      other: ['CALCULATED', false, 0],
      a4: ['CONFIRMED', false, 0],
      a5: ['PAID', false, 0],
      a6: ['CONFIRMED', true, 1],
      a7: ['CONFIRMED', true, 1],
    });
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1 AND settle_month = $2', [agents.fc, M])).toEqual(['CONFIRMED', 'CONFIRMED']);
    expect(await statusesOf(ctx, 'maintain_ledger', 'agent_id = $1', [agents.fc])).toEqual(['CONFIRMED']);
    expect(await statusesOf(ctx, 'other_commission_ledger', 'agent_id = $1', [agents.fc])).toEqual(['CONFIRMED']);
    expect(await statusesOf(ctx, 'chargeback', 'agent_id = $1', [agents.fc])).toEqual(['CONFIRMED']);
    expect(await statusesOf(ctx, 'override_settle', 'to_agent_id = $1', [agents.fc])).toEqual(['CONFIRMED']);
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1', [agents.leader])).toEqual(['HOLD']);
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1', [agents.other])).toEqual(['CALCULATED']);
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1', [agents.a5])).toEqual(['PAID']);
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = ANY($1)', [[agents.a6, agents.a7]])).toEqual(['CONFIRMED', 'CONFIRMED']);
    // April untouched
    expect(await statusOf(settle.fcApril!)).toBe('CALCULATED');
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1 AND settle_month = $2', [agents.fc, '202504'])).toEqual(['CALCULATED']);
  });

  it('writes one change-log entry with the counts, not one per row', async () => {
    await ctx.app.changeLogWriter.flush();
    const { rows } = await ctx.pool.query<{ record_id: string; action: string; after_data: any }>(
      `SELECT record_id, action, after_data FROM data_change_log WHERE table_name = 'settle_master' ORDER BY change_id`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ record_id: M, action: 'APPROVE' });
    const after = typeof rows[0]!.after_data === 'string' ? JSON.parse(rows[0]!.after_data) : rows[0]!.after_data;
    expect(after).toMatchObject({
      operation: 'confirm-month',
      filter: { agentIds: null, orgId: null },
      confirmed: 3,
      skippedHold: 1,
      skippedDispute: 1,
      ledgerRows: { recruit_ledger: 4, maintain_ledger: 1, override_settle: 1, other_commission_ledger: 1, chargeback: 1 },
    });
  });

  it('a second call (PUT) confirms nothing more', async () => {
    const res = await a.put('/api/settle/confirm-month', { settleMonth: M });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      total: 7,
      confirmed: 0,
      skippedHold: 1,
      skippedDispute: 1,
      alreadyConfirmed: 4,
      alreadyPaid: 1,
      ledgerRows: { recruit_ledger: 0, maintain_ledger: 0, override_settle: 0, other_commission_ledger: 0, chargeback: 0 },
      approval: { openRequests: 0 },
    });
  });

  it('confirms only the agents or the organization asked for', async () => {
    const month = '202505';
    // team A: fc, leader, a6, a7; team B: other, a4, a5
    const ids: Record<string, number> = {};
    for (const key of ['fc', 'leader', 'other', 'a4', 'a6', 'a7']) {
      ids[key] = await insertSettle(ctx, { agentId: agents[key]!, settleMonth: month, gross: '1.00', net: '1.00' });
      await recruit(agents[key]!, month);
    }
    const byAgents = await a.post('/api/settle/confirm-month', { settleMonth: month, agentIds: [agents.leader, agents.a4] });
    expect(byAgents.body.data).toMatchObject({ total: 2, confirmed: 2, ledgerRows: { recruit_ledger: 2 } });
    const byOrg = await a.post('/api/settle/confirm-month', { settleMonth: month, orgId: book.teamId });
    // team A's fc, a6, a7 (leader already confirmed above)
    expect(byOrg.body.data).toMatchObject({ total: 4, confirmed: 3, alreadyConfirmed: 1, ledgerRows: { recruit_ledger: 3 } });
    expect(await statusOf(ids.other!)).toBe('CALCULATED');
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1 AND settle_month = $2', [agents.other, month])).toEqual(['CALCULATED']);
  });

  it('refuses a CLOSED month with B001 and changes nothing', async () => {
    const month = '202506';
    const id = await insertSettle(ctx, { agentId: agents.fc!, settleMonth: month, gross: '1.00', net: '1.00' });
    await recruit(agents.fc!, month);
    await ctx.pool.query(`INSERT INTO period_close (settle_month, status, closed_at) VALUES ($1, 'CLOSED', now())`, [month]);
    const res = await a.post('/api/settle/confirm-month', { settleMonth: month });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'B001', message: 'Settle month 202506 is closed: month-wide confirm refused (reopen it first)' });
    expect(await statusOf(id)).toBe('CALCULATED');
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1 AND settle_month = $2', [agents.fc, month])).toEqual(['CALCULATED']);
  });

  it('refuses while a settlement run of the month is in progress (B010) and changes nothing', async () => {
    const month = '202507';
    const id = await insertSettle(ctx, { agentId: agents.fc!, settleMonth: month, gross: '1.00', net: '1.00' });
    const { rows } = await ctx.pool.query<{ job_log_id: number }>(
      `INSERT INTO batch_job_log (job_name, settle_month, status) VALUES ('SETTLEMENT', $1, 'RUNNING') RETURNING job_log_id`,
      [month],
    );
    const res = await a.post('/api/settle/confirm-month', { settleMonth: month });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'B010', message: `Settlement run ${rows[0]!.job_log_id} of 202507 is in progress; confirm after it has finished` });
    expect(await statusOf(id)).toBe('CALCULATED');
  });

  it('rejects a bad month or an empty agent list as invalid input (E411)', async () => {
    expect((await a.post('/api/settle/confirm-month', { settleMonth: '202513' })).body.code).toBe('E411');
    expect((await a.post('/api/settle/confirm-month', { settleMonth: M, agentIds: [] })).body.code).toBe('E411');
  });
});
