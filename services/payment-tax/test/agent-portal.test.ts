import { sql } from 'kysely';
import { signAccessToken } from '@csp/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmedSettlement, seedAgents } from './book.js';
import { startPlatform, type Platform } from './api-platform.js';

/**
 * The agent portal's server side (issue 24 item 6, DECISIONS "Settlement lifecycle": agents serve themselves).
 * V088 grants the AGENT role STATEMENT READ, PAYMENT READ and WITHDRAW READ + CREATE; every one of these is row-scoped
 * to the user's agent, the statement download included (another agent's statement is not found and stays unread).
 * Month 202509: mine 5000.00 gross, the other agent 3000.00, both confirmed and paid as far as their taxes.
 */
let p: Platform;
const MONTH = '202509';
const ids = { mine: 0, other: 0, myStatement: 0, otherStatement: 0 };
let agentToken: string;

beforeAll(async () => {
  p = await startPlatform();
  [ids.mine, ids.other] = await seedAgents(p.ctx.db, p.ctx.app.cipher, [
    { name: '나설계', taxType: 'BUSINESS_INCOME', vatType: 'NONE' },
    { name: '남설계', taxType: 'BUSINESS_INCOME', vatType: 'NONE' },
  ]);
  await confirmedSettlement(p.ctx.db, ids.mine, MONTH, '5000.00');
  await confirmedSettlement(p.ctx.db, ids.other, MONTH, '3000.00');
  expect((await p.call('POST', `/api/payments/generate?settleMonth=${MONTH}`)).body.data).toEqual({ created: 2, skipped: [] });
  expect((await p.call('POST', `/api/payments/calculate-taxes?settleMonth=${MONTH}`)).status).toBe(200);
  ids.myStatement = (await p.call('POST', '/api/statements/generate', { agentId: ids.mine, settleMonth: MONTH })).body.data.statementId;
  ids.otherStatement = (await p.call('POST', '/api/statements/generate', { agentId: ids.other, settleMonth: MONTH })).body.data.statementId;

  const { rows } = await sql<{ user_id: number }>`
    INSERT INTO users (login_id, password, user_name, status, agent_id)
    VALUES ('portal_agent', '!', 'portal agent', 'ACTIVE', ${ids.mine}) RETURNING user_id`.execute(p.ctx.db);
  const userId = Number(rows[0]!.user_id);
  await sql`INSERT INTO user_role (user_id, role_id) SELECT ${userId}, role_id FROM role WHERE role_code = 'AGENT'`.execute(p.ctx.db);
  agentToken = await signAccessToken(p.ctx.app, { userId, loginId: 'portal_agent', userName: 'portal agent', roleCodes: ['AGENT'], agentId: ids.mine });
});

afterAll(async () => {
  await p?.close();
});

const asAgent = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => p.call(method, path, body, agentToken);

describe('an AGENT user serves itself', () => {
  it('is granted statement and payment reads and withdraw reads and requests (V088), nothing more on those menus', async () => {
    const { rows } = await p.ctx.pool.query(`
      SELECT m.menu_code, rmp.perm_code FROM role_menu_permission rmp
      JOIN role r ON r.role_id = rmp.role_id JOIN menu m ON m.menu_id = rmp.menu_id
      WHERE r.role_code = 'AGENT' AND m.menu_code IN ('STATEMENT', 'PAYMENT', 'WITHDRAW') AND rmp.is_granted = 'Y'
      ORDER BY m.menu_code, rmp.perm_code`);
    expect(rows.map((r) => `${r.menu_code} ${r.perm_code}`)).toEqual(['PAYMENT READ', 'STATEMENT READ', 'WITHDRAW CREATE', 'WITHDRAW READ']);
  });

  it('lists only its own statements and payments', async () => {
    const statements = await asAgent('GET', '/api/statements');
    expect(statements.status).toBe(200);
    expect(statements.body.data.list.map((s: any) => [s.statementId, s.agentId, s.settleMonth, s.grossAmount])).toEqual([
      [ids.myStatement, ids.mine, MONTH, '5000.00'],
    ]);
    const payments = await asAgent('GET', '/api/payments');
    expect(payments.body.data.list.map((r: any) => [r.agentId, r.amount])).toEqual([[ids.mine, '5000.00']]);
    expect((await asAgent('GET', `/api/statements/${ids.otherStatement}`)).body.code).toBe('E404');
  });

  it("downloads its own statement, and another agent's is not found and stays unread", async () => {
    const mine = await asAgent('GET', `/api/statements/${ids.myStatement}/download`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toContain('spreadsheetml');
    expect(mine.raw.subarray(0, 2).toString()).toBe('PK');
    const other = await asAgent('GET', `/api/statements/${ids.otherStatement}/download`);
    expect([other.status, other.body.code]).toEqual([404, 'E404']);
    const statuses = await p.ctx.db
      .selectFrom('commission_statement')
      .select(['statement_id', 'issue_status'])
      .where('statement_id', 'in', [ids.myStatement, ids.otherStatement])
      .orderBy('statement_id')
      .execute();
    expect(statuses.map((s) => [Number(s.statement_id), s.issue_status])).toEqual([
      [ids.myStatement, 'DOWNLOADED'],
      [ids.otherStatement, 'GENERATED'],
    ]);
    // the back office still downloads any statement
    expect((await p.call('GET', `/api/statements/${ids.otherStatement}/download`)).status).toBe(200);
  });

  it('reads its balance and requests a withdrawal within it; not for another agent, not above the balance', async () => {
    expect((await asAgent('GET', `/api/withdraw-requests/balance?agentId=${ids.mine}`)).body.data).toEqual({
      agentId: ids.mine,
      confirmedUnpaid: '5000.00',
      outstandingWithdraws: '0.00',
      available: '5000.00',
    });
    expect((await asAgent('GET', `/api/withdraw-requests/balance?agentId=${ids.other}`)).body.code).toBe('E403');
    const tooMuch = await asAgent('POST', '/api/withdraw-requests', { agentId: ids.mine, amount: '5000.01' });
    expect([tooMuch.body.code, tooMuch.body.message]).toEqual(['E411', expect.stringContaining('exceeds the available balance 5000.00')]);
    expect((await asAgent('POST', '/api/withdraw-requests', { agentId: ids.other, amount: '10.00' })).body.code).toBe('E403');
    const made = await asAgent('POST', '/api/withdraw-requests', { agentId: ids.mine, amount: '1200.50', note: '학자금' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const list = await asAgent('GET', '/api/withdraw-requests');
    expect(list.body.data.list.map((w: any) => [w.withdrawId, w.agentId, w.amount, w.status, w.note])).toEqual([
      [made.body.data.id, ids.mine, '1200.50', 'REQUESTED', '학자금'],
    ]);
    expect((await asAgent('GET', `/api/withdraw-requests/balance?agentId=${ids.mine}`)).body.data).toMatchObject({
      outstandingWithdraws: '1200.50',
      available: '3799.50',
    });
  });

  it('cannot issue, cancel or pay: those stay with the back office (E403)', async () => {
    expect((await asAgent('POST', '/api/statements/generate', { agentId: ids.mine, settleMonth: MONTH })).body.code).toBe('E403');
    expect((await asAgent('PUT', `/api/statements/${ids.myStatement}/cancel`)).body.code).toBe('E403');
    expect((await asAgent('POST', `/api/payments/generate?settleMonth=${MONTH}`)).body.code).toBe('E403');
  });
});
