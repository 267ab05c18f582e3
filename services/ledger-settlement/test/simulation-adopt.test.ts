import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@csp/db';
import { applyEvent, silentLog, type ApprovalDecided, type ConsumedEvent } from '@csp/events';
import { ledgerEventConsumer } from '../src/event-consumer.js';
import { applySimulationDecision } from '../src/simulations/simulation-events.js';
import { removeRedisPrefix } from './api-helpers.js';
import { gatewayClient, startPlatform, TEST_ADMIN_PASSWORD, type Platform } from './e2e-platform.js';

/**
 * Adopting a simulation (issue 26 item 4) through the gateway with the approval workflow's events really
 * flowing: ledger-settlement writes APPROVAL_REQUESTED (target SIMULATION, the author as requester),
 * auth-platform starts the request, its decision comes back as APPROVAL_DECIDED to ledger-settlement's
 * consumer, which writes the rule revisions. The simulations are put to DONE by SQL (running them is
 * simulation-api.test.ts's subject). Rules of the test (ids from their sequences):
 *   P60: payout grade 1 LIFE year 1 60 % from 2020-01-01 (open)      -> REPLACE by 65 %
 *   P70: payout grade 2 LIFE year 1 70 % from 2020-01-01 (open)      -> END
 *   ADD: payout grade 3 LIFE year 1 30 % (proposed from 2025-01-01; adopted from the chosen date)
 */
let p: Platform;
let admin: string;
let author: string;
let approver: string;
let authorId: number;
let approverId: number;
const events = `csp-simad-${randomBytes(5).toString('hex')}`;
const saved: Record<string, string | undefined> = {};
const EVENT_ENV: Record<string, string> = {
  EVENTS_ENABLED: 'on',
  EVENTS_RELAY: 'on',
  EVENTS_PREFIX: events,
  EVENTS_POLL_MS: '20',
  EVENTS_ATTEMPTS: '2',
  EVENTS_BACKOFF_MS: '50',
};
const rule: Record<string, number> = {};

const { call, ok } = gatewayClient(() => p, () => admin);

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function addUser(loginId: string, role: string): Promise<{ token: string; userId: number }> {
  const { rows } = await p.pool.query<{ user_id: number }>(
    `WITH u AS (INSERT INTO users (login_id, password, user_name, status) VALUES ($1, $2, $1, 'ACTIVE') RETURNING user_id)
     INSERT INTO user_role (user_id, role_id) SELECT u.user_id, r.role_id FROM u, role r WHERE r.role_code = $3 RETURNING user_id`,
    [loginId, await hashPassword('Simulation-pass-1'), role],
  );
  return { token: await p.login(loginId, 'Simulation-pass-1'), userId: Number(rows[0]!.user_id) };
}

const body = (name: string) => ({
  name,
  baseMonth: '202501',
  scopeType: 'ALL',
  changes: [
    {
      ruleTable: 'payout_rule',
      action: 'REPLACE',
      targetId: rule.p60,
      values: { gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '65', effectiveFrom: '2025-01-01' },
    },
    { ruleTable: 'payout_rule', action: 'END', targetId: rule.p70, endDate: '2025-01-01' },
    {
      ruleTable: 'payout_rule',
      action: 'ADD',
      values: { gradeId: 3, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '30', effectiveFrom: '2025-01-01' },
    },
  ],
});

/** A simulation created by the author and finished (DONE). */
async function doneSimulation(name: string): Promise<number> {
  const id = (await ok('POST', '/api/simulations', body(name), author)).id as number;
  await p.db.updateTable('simulation').set({ status: 'DONE' }).where('simulation_id', '=', id).execute();
  return id;
}

const simulation = async (id: number) => ok('GET', `/api/simulations/${id}`);
const requestOf = (id: number) =>
  waitFor(async () => (await ok('GET', `/api/approvals/requests?targetType=SIMULATION&targetId=${id}`)).list[0], `the approval request of simulation ${id}`);

async function payoutRows() {
  const { rows } = await p.pool.query(
    `SELECT rule_id, grade_id, payout_pct::text, effective_from, effective_to, version, simulation_id
       FROM payout_rule WHERE insurance_type = 'LIFE' AND commission_year = 1 ORDER BY grade_id, effective_from`,
  );
  return rows;
}

beforeAll(async () => {
  for (const [key, value] of Object.entries(EVENT_ENV)) {
    saved[key] = process.env[key];
    process.env[key] = value;
  }
  p = await startPlatform({ workers: [] });
  admin = await p.login('admin', TEST_ADMIN_PASSWORD);
  const { rows } = await p.pool.query<{ rule_id: number; grade_id: number }>(`
    INSERT INTO payout_rule (grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES
      (1, 'LIFE', 1, 60, '2020-01-01'), (2, 'LIFE', 1, 70, '2020-01-01')
    RETURNING rule_id, grade_id`);
  rule.p60 = Number(rows.find((r) => Number(r.grade_id) === 1)!.rule_id);
  rule.p70 = Number(rows.find((r) => Number(r.grade_id) === 2)!.rule_id);
  const a = await addUser('sim_author', 'ADMIN');
  const b = await addUser('sim_approver', 'ADMIN');
  [author, authorId, approver, approverId] = [a.token, a.userId, b.token, b.userId];
}, 60_000);

afterAll(async () => {
  await p?.close();
  await removeRedisPrefix(events);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('adopting a simulation through the approval workflow', () => {
  it('refuses to adopt a simulation that is not DONE, and a date its target rows cannot take', async () => {
    const draft = (await ok('POST', '/api/simulations', body('still a draft'), author)).id;
    const res = await call('POST', `/api/simulations/${draft}/adopt`, { effectiveFrom: '2025-03-01' }, author);
    expect([res.status, res.body.code, res.body.message]).toEqual([400, 'E400', `Simulation ${draft} is DRAFT: only a DONE simulation can be adopted`]);
    await p.db.updateTable('simulation').set({ status: 'DONE' }).where('simulation_id', '=', draft).execute();
    const early = await call('PUT', `/api/simulations/${draft}/adopt`, { effectiveFrom: '2020-01-01' }, author);
    expect([early.status, early.body.code]).toEqual([400, 'E411']);
    expect(early.body.data.errors).toEqual([
      { field: 'effectiveFrom', message: `change 1 (Payout rule #${rule.p60} REPLACE): the row starts 2020-01-01, a revision must start after it` },
    ]);
    expect((await simulation(draft)).status).toBe('DONE');
    await ok('DELETE', `/api/simulations/${draft}`);
  });

  it('adopt -> ADOPTION_PENDING with an approval request by the author; the author may not approve; another approver makes the rule revisions', async () => {
    const id = await doneSimulation('FC payout 65 %');
    const res = await call('POST', `/api/simulations/${id}/adopt`, { effectiveFrom: '2025-03-01' }, author);
    expect([res.status, res.body.data]).toEqual([202, { status: 'ADOPTION_PENDING', approvalLineCode: 'SIMULATION_DEFAULT' }]);
    const request = await requestOf(id);
    expect(request).toMatchObject({ targetType: 'SIMULATION', targetId: id, lineCode: 'SIMULATION_DEFAULT', status: 'PENDING', requestedBy: authorId });
    expect(await simulation(id)).toMatchObject({ status: 'ADOPTION_PENDING', statusName: 'Adoption pending', approvalId: request.requestId });
    // not editable, deletable or adoptable again while pending
    expect((await call('PUT', `/api/simulations/${id}`, body('edited'), author)).status).toBe(400);
    expect((await call('DELETE', `/api/simulations/${id}`)).status).toBe(400);
    const again = await call('POST', `/api/simulations/${id}/adopt`, { effectiveFrom: '2025-03-01' }, approver);
    expect(again.body.message).toBe(`Simulation ${id} is ADOPTION_PENDING: only a DONE simulation can be adopted`);

    const self = await call('POST', `/api/approvals/requests/${request.requestId}/approve`, {}, author);
    expect([self.status, self.body.code, self.body.message]).toEqual([403, 'E403', `You cannot approve your own approval request ${request.requestId}`]);
    expect(await payoutRows()).toEqual([
      { rule_id: rule.p60, grade_id: 1, payout_pct: '60.0000', effective_from: '2020-01-01', effective_to: null, version: 1, simulation_id: null },
      { rule_id: rule.p70, grade_id: 2, payout_pct: '70.0000', effective_from: '2020-01-01', effective_to: null, version: 1, simulation_id: null },
    ]);

    await ok('POST', `/api/approvals/requests/${request.requestId}/approve`, { comment: 'costed' }, approver);
    const adopted = await waitFor(async () => {
      const s = await simulation(id);
      return s.status === 'ADOPTED' ? s : undefined;
    }, 'ADOPTED');
    expect(adopted).toMatchObject({ statusName: 'Adopted', approvalId: request.requestId, errorMessage: null });
    const rows = await payoutRows();
    const newId = (grade: number) => rows.find((r) => r.grade_id === grade && r.effective_from === '2025-03-01')!.rule_id;
    expect(rows).toEqual([
      // REPLACE: the 60 % row ends at 2025-03-01 (exclusive: its last day is 2025-02-28), 65 % from then on
      { rule_id: rule.p60, grade_id: 1, payout_pct: '60.0000', effective_from: '2020-01-01', effective_to: '2025-03-01', version: 2, simulation_id: id },
      { rule_id: newId(1), grade_id: 1, payout_pct: '65.0000', effective_from: '2025-03-01', effective_to: null, version: 2, simulation_id: id },
      // END: ends at the adoption date
      { rule_id: rule.p70, grade_id: 2, payout_pct: '70.0000', effective_from: '2020-01-01', effective_to: '2025-03-01', version: 2, simulation_id: id },
      // ADD: a new row from the adoption date
      { rule_id: newId(3), grade_id: 3, payout_pct: '30.0000', effective_from: '2025-03-01', effective_to: null, version: 1, simulation_id: id },
    ]);
    const { rows: audit } = await p.pool.query(
      `SELECT table_name, action FROM data_change_log WHERE request_id LIKE 'event-%' AND menu_code = 'SIMULATION' ORDER BY change_id`,
    );
    expect(audit.map((r) => `${r.table_name} ${r.action}`)).toEqual([
      'payout_rule UPDATE',
      'payout_rule CREATE',
      'payout_rule UPDATE',
      'payout_rule CREATE',
      'simulation APPROVE',
    ]);

    // applied exactly once: the same APPROVAL_DECIDED delivered again is a duplicate for the consumer ...
    const event = await p.db
      .selectFrom('event_outbox')
      .select(['event_id', 'event_key', 'event_type', 'target', 'subject', 'payload', 'created_at'])
      .where('event_type', '=', 'APPROVAL_DECIDED')
      .where('subject', '=', `SIMULATION#${id}`)
      .executeTakeFirstOrThrow();
    expect(event.payload).toMatchObject({ decision: 'APPROVED', decidedBy: approverId, requestedBy: authorId, requestId: request.requestId });
    const job = { data: { eventId: event.event_id, eventKey: event.event_key, type: event.event_type }, attempt: 1, maxAttempts: 1 };
    expect(await applyEvent({ db: p.db, consumer: ledgerEventConsumer, logger: silentLog }, job)).toBe('duplicate');
    // ... and the handler itself, run again without that claim, finds the decision already applied
    const consumed: ConsumedEvent<ApprovalDecided> = {
      eventId: event.event_id,
      type: event.event_type,
      target: event.target,
      subject: event.subject,
      payload: event.payload as ApprovalDecided,
      createdAt: event.created_at,
      attempt: 2,
    };
    await p.db.transaction().execute((trx) => applySimulationDecision(trx, consumed));
    expect(await payoutRows()).toEqual(rows);
    expect((await simulation(id)).status).toBe('ADOPTED');
  });

  it('a rejection sends the simulation back to DONE with the reason and writes no rule row', async () => {
    const before = await payoutRows();
    const id = await doneSimulation('FC payout 65 % (second try)');
    expect((await call('POST', `/api/simulations/${id}/adopt`, { effectiveFrom: '2025-02-01' }, author)).status).toBe(202);
    const request = await requestOf(id);
    await ok('POST', `/api/approvals/requests/${request.requestId}/reject`, { reason: 'too expensive' }, approver);
    const back = await waitFor(async () => {
      const s = await simulation(id);
      return s.status === 'DONE' ? s : undefined;
    }, 'DONE again');
    expect(back).toMatchObject({ statusName: 'Done', approvalId: request.requestId, errorMessage: 'Adoption rejected: too expensive' });
    expect(await payoutRows()).toEqual(before);
    const { rows } = await p.pool.query('SELECT adopt_from FROM simulation WHERE simulation_id = $1', [id]);
    expect(rows[0].adopt_from).toBeNull();
  });
});
