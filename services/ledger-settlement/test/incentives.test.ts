import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@csp/db';
import { applyEvent, silentLog, type ApprovalDecided, type ConsumedEvent } from '@csp/events';
import { ledgerEventConsumer } from '../src/event-consumer.js';
import { calculateIncentivesDueIn } from '../src/incentives/incentive-calculation.service.js';
import { applyIncentiveDecision } from '../src/incentives/incentive-events.js';
import { removeRedisPrefix } from './api-helpers.js';
import { gatewayClient, startPlatform, TEST_ADMIN_PASSWORD, type Platform } from './e2e-platform.js';

/**
 * Incentive programs and payments through the gateway (issue 16), with the approval workflow's events
 * really flowing: ledger-settlement writes APPROVAL_REQUESTED, auth-platform starts the request, its
 * decision comes back as APPROVAL_DECIDED to ledger-settlement's consumer (relays and consumers run in the
 * service processes, EVENTS_ENABLED on, a random queue prefix). The book is seeded by SQL; every amount is
 * worked out by hand below.
 *
 * Agents 4101 (A), 4102 (B), 4103 (C). Contracts dated in 202503..202505 (recruiting agent):
 *   A: 2025-03-10 1800000.00 + 2025-05-31 1200000.00 = 3000000.00 (2 contracts); outside: 2025-02-28, 2025-06-01
 *   B: 2025-04-15 2999999.99 (1 contract)
 *   C: 2025-04-20  999999.99 (1 contract)
 * recruit_ledger agent_amount of 202503..202504:
 *   A: 120000.00 (202503) + 80000.00 (202504) = 200000.00
 *   B: 199999.99 (202504); outside: 50000.00 (202505)
 *   C: 99999.99 (202503)
 */
let p: Platform;
let admin: string;
let clerk: string;
let approver: string;
let agentA: string;
let approverId: number;
let clerkId: number;
const events = `csp-inc-${randomBytes(5).toString('hex')}`;
const saved: Record<string, string | undefined> = {};
const EVENT_ENV: Record<string, string> = {
  EVENTS_ENABLED: 'on',
  EVENTS_RELAY: 'on',
  EVENTS_PREFIX: events,
  EVENTS_POLL_MS: '20',
  EVENTS_ATTEMPTS: '2',
  EVENTS_BACKOFF_MS: '50',
};
const ids: Record<string, number> = {};

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

async function addUser(loginId: string, role: string, agentId: number | null = null): Promise<{ token: string; userId: number }> {
  const { rows } = await p.pool.query<{ user_id: number }>(
    `WITH u AS (INSERT INTO users (login_id, password, user_name, status, agent_id) VALUES ($1, $2, $1, 'ACTIVE', $3) RETURNING user_id)
     INSERT INTO user_role (user_id, role_id) SELECT u.user_id, r.role_id FROM u, role r WHERE r.role_code = $4 RETURNING user_id`,
    [loginId, await hashPassword('Incentive-pass-1'), agentId, role],
  );
  return { token: await p.login(loginId, 'Incentive-pass-1'), userId: Number(rows[0]!.user_id) };
}

const results = async (programId: number, token = admin) =>
  (await ok('GET', `/api/incentive-payments?programId=${programId}&sortField=agentId&sortOrder=ASC`, undefined, token)).list;
const figures = (r: any) => [r.agentId, r.measuredValue, r.tierNo, r.amount, r.status];
const resultOf = async (programId: number, agentId: number) => (await results(programId)).find((r: any) => r.agentId === agentId);

const FIXED_PROGRAM = {
  programCode: 'Q2-PREMIUM',
  programName: 'Q2 new premium push',
  metric: 'NEW_PREMIUM',
  rewardType: 'FIXED',
  periodFrom: '202503',
  periodTo: '202505',
  payMonth: '202506',
  tiers: [
    { tierNo: 1, threshold: '1000000', rewardAmount: '100000' },
    { tierNo: 2, threshold: '3000000', rewardAmount: 250000 },
  ],
};

beforeAll(async () => {
  for (const [key, value] of Object.entries(EVENT_ENV)) {
    saved[key] = process.env[key];
    process.env[key] = value;
  }
  p = await startPlatform({ workers: [] });
  admin = await p.login('admin', TEST_ADMIN_PASSWORD);
  await p.pool.query(`
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES (410, NULL, 'HQ', 'HQ', 1);
    INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status) VALUES (4101, 410, 1, 'Ann FC', 'ACTIVE'), (4102, 410, 1, 'Ben FC', 'ACTIVE'), (4103, 410, 1, 'Cy FC', 'ACTIVE');
    INSERT INTO insurance_company (company_id, company_code, company_name, company_type) VALUES (41, 'L041', 'Delta Life', 'LIFE');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES (741, 41, 'D-LIFE', 'Delta life', 'LIFE');
    INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, contract_date) VALUES
      (41001, 4101, 741, 'D-1', 1800000.00, '2025-03-10'),
      (41002, 4101, 741, 'D-2', 1200000.00, '2025-05-31'),
      (41003, 4101, 741, 'D-3',  700000.00, '2025-02-28'),
      (41004, 4101, 741, 'D-4',  500000.00, '2025-06-01'),
      (41005, 4102, 741, 'D-5', 2999999.99, '2025-04-15'),
      (41006, 4103, 741, 'D-6',  999999.99, '2025-04-20');
    INSERT INTO recruit_ledger (contract_id, agent_id, commission_year, settle_month, agent_amount) VALUES
      (41001, 4101, 1, '202503', 120000.00),
      (41001, 4101, 1, '202504',  80000.00),
      (41005, 4102, 1, '202504', 199999.99),
      (41005, 4102, 1, '202505',  50000.00),
      (41006, 4103, 1, '202503',  99999.99);
  `);
  const c = await addUser('inc_clerk', 'ADMIN');
  const a = await addUser('inc_approver', 'ADMIN');
  [clerk, clerkId, approver, approverId] = [c.token, c.userId, a.token, a.userId];
  agentA = (await addUser('inc_agent_a', 'AGENT', 4101)).token;
  // AGENT has no incentive grant in the seeds: READ is given here to show the row scope
  await p.pool.query(`
    INSERT INTO role_menu_permission (role_id, menu_id, perm_code)
    SELECT r.role_id, m.menu_id, 'READ' FROM role r, menu m WHERE r.role_code = 'AGENT' AND m.menu_code = 'INCENTIVE_PAY'`);
});

afterAll(async () => {
  await p?.close();
  await removeRedisPrefix(events);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('incentive programs and payments through the gateway', () => {
  it('refuses bad programs with E411 field errors: no tiers, decreasing thresholds, a PCT tier without pct, an unknown metric', async () => {
    const errorsOf = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/api/incentive-programs', { ...FIXED_PROGRAM, programCode: 'BAD', ...body });
      expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([400, 'E411']);
      return res.body.data.errors;
    };
    expect(await errorsOf({ tiers: [] })).toEqual([{ field: 'tiers', message: 'a program needs at least one tier' }]);
    expect((await errorsOf({ tiers: undefined })).map((e: any) => e.field)).toEqual(['tiers']);
    expect(
      await errorsOf({
        tiers: [
          { tierNo: 1, threshold: '3000000', rewardAmount: '100000' },
          { tierNo: 2, threshold: '1000000', rewardAmount: '250000' },
        ],
      }),
    ).toEqual([{ field: 'tiers.1.threshold', message: 'must be greater than the threshold of tier 1 (3000000.00): thresholds increase with the tier number' }]);
    expect(await errorsOf({ rewardType: 'PCT', tiers: [{ tierNo: 1, threshold: '1000', rewardAmount: '5' }] })).toEqual([
      { field: 'tiers.0.rewardPct', message: 'is required for a PCT program' },
      { field: 'tiers.0.rewardAmount', message: 'is only taken by a FIXED program' },
    ]);
    expect((await errorsOf({ metric: 'GROSS_PROFIT' })).map((e: any) => e.field)).toEqual(['metric']);
    expect(await errorsOf({ periodTo: '202502', payMonth: '202501' })).toEqual([
      { field: 'periodTo', message: 'must not be before periodFrom' },
      { field: 'payMonth', message: 'must not be before periodTo' },
    ]);
    expect(await errorsOf({ metric: 'RECRUIT_COUNT', rewardType: 'PCT', tiers: [{ tierNo: 1, threshold: '2', rewardPct: '1' }] })).toEqual([
      { field: 'rewardType', message: 'PCT pays a percentage of a money figure: use NEW_PREMIUM or RECRUIT_COMMISSION, or FIXED' },
    ]);
    expect(await errorsOf({ tiers: [{ tierNo: 1, threshold: '-1', rewardAmount: '5' }] })).toEqual([{ field: 'tiers.0.threshold', message: 'must not be negative' }]);
    expect((await ok('GET', '/api/incentive-programs?searchKeyword=BAD')).total).toBe(0);
  });

  it('calculates: A lands exactly on the top threshold, B one cent below it stays on tier 1, C reaches no tier; a recalculation changes nothing', async () => {
    ids.fixed = (await ok('POST', '/api/incentive-programs', FIXED_PROGRAM)).id;
    const detail = await ok('GET', `/api/incentive-programs/${ids.fixed}`);
    expect(detail).toMatchObject({ programCode: 'Q2-PREMIUM', status: 'DRAFT', tierCount: 2, resultCount: 0, version: 0 });
    expect(detail.tiers).toEqual([
      { tierNo: 1, threshold: '1000000.00', rewardAmount: '100000.00', rewardPct: null },
      { tierNo: 2, threshold: '3000000.00', rewardAmount: '250000.00', rewardPct: null },
    ]);
    const draft = await call('POST', `/api/incentive-programs/${ids.fixed}/calculate`);
    expect([draft.status, draft.body.code, draft.body.message]).toEqual([400, 'B001', `Incentive program ${ids.fixed} is DRAFT; only ACTIVE programs are calculated`]);
    expect((await ok('PUT', `/api/incentive-programs/${ids.fixed}/activate`)).status).toBe('ACTIVE');
    expect((await call('POST', `/api/incentive-programs/${ids.fixed}/activate`)).body.code).toBe('B001');

    const counts = await ok('POST', `/api/incentive-programs/${ids.fixed}/calculate`);
    // measured: A, B, C; qualified: A (tier 2) and B (tier 1); 250000.00 + 100000.00 = 350000.00
    expect(counts).toEqual({
      programId: ids.fixed,
      programCode: 'Q2-PREMIUM',
      settleMonth: '202506',
      measured: 3,
      qualified: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      kept: 0,
      calculatedAmount: '350000.00',
    });
    const rows = await results(ids.fixed);
    // A: 1800000.00 + 1200000.00 = 3000000.00 >= 3000000.00 -> tier 2, 250000.00
    // B: 2999999.99 < 3000000.00 but >= 1000000.00 -> tier 1, 100000.00
    // C: 999999.99 < 1000000.00 -> no result
    expect(rows.map(figures)).toEqual([
      [4101, '3000000.00', 2, '250000.00', 'CALCULATED'],
      [4102, '2999999.99', 1, '100000.00', 'CALCULATED'],
    ]);
    ids.a = rows[0].resultId;
    ids.b = rows[1].resultId;
    expect(rows[0]).toMatchObject({ programCode: 'Q2-PREMIUM', settleMonth: '202506', agentName: 'Ann FC', metric: 'NEW_PREMIUM', rewardType: 'FIXED' });
    expect((await ok('GET', `/api/incentive-payments/${ids.a}`)).calcBasis).toEqual({
      metric: 'NEW_PREMIUM',
      periodFrom: '202503',
      periodTo: '202505',
      measured: '3000000.00',
      rewardType: 'FIXED',
      tierNo: 2,
      threshold: '3000000.00',
      rewardAmount: '250000.00',
      amount: '250000.00',
    });
    expect(await ok('PUT', `/api/incentive-programs/${ids.fixed}/calculate`)).toMatchObject({ created: 0, updated: 0, unchanged: 2, deleted: 0, calculatedAmount: '350000.00' });

    // PCT on recruit commission, 202503..202504: tier 1 >= 100000.00 at 5 %, tier 2 >= 200000.00 at 7.5 %
    ids.pct = (
      await ok('POST', '/api/incentive-programs', {
        programCode: 'RC-BONUS',
        programName: 'Recruit commission bonus',
        metric: 'RECRUIT_COMMISSION',
        rewardType: 'PCT',
        periodFrom: '202503',
        periodTo: '202504',
        payMonth: '202506',
        tiers: [
          { tierNo: 1, threshold: '100000', rewardPct: '5' },
          { tierNo: 2, threshold: '200000', rewardPct: 7.5 },
        ],
      })
    ).id;
    await ok('POST', `/api/incentive-programs/${ids.pct}/activate`);
    expect(await ok('POST', `/api/incentive-programs/${ids.pct}/calculate`)).toMatchObject({ measured: 3, qualified: 2, created: 2, calculatedAmount: '25000.00' });
    // A: 120000.00 + 80000.00 = 200000.00 -> tier 2: 200000.00 x 7.5 / 100 = 15000.00
    // B: 199999.99 (202505 is outside) -> tier 1: 199999.99 x 5 / 100 = 9999.9995 -> 10000.00 (HALF_UP)
    // C: 99999.99 -> none; 15000.00 + 10000.00 = 25000.00
    expect((await results(ids.pct)).map(figures)).toEqual([
      [4101, '200000.00', 2, '15000.00', 'CALCULATED'],
      [4102, '199999.99', 1, '10000.00', 'CALCULATED'],
    ]);
  });

  it('a program with results keeps its tiers and period (B001), while its name still changes; stale versions are B002', async () => {
    const body = { ...FIXED_PROGRAM, programName: 'Q2 push (renamed)' };
    const tiers = await call('PUT', `/api/incentive-programs/${ids.fixed}`, {
      ...body,
      tiers: [{ tierNo: 1, threshold: '1000000', rewardAmount: '120000' }, FIXED_PROGRAM.tiers[1]],
    });
    expect([tiers.status, tiers.body.code, tiers.body.message]).toEqual([
      400,
      'B001',
      `Incentive program ${ids.fixed} has 2 result(s): its tiers, period, pay month, metric and reward type no longer change`,
    ]);
    expect((await call('PUT', `/api/incentive-programs/${ids.fixed}`, { ...body, periodTo: '202506', payMonth: '202506' })).body.code).toBe('B001');
    const version = (await ok('GET', `/api/incentive-programs/${ids.fixed}`)).version;
    await ok('PUT', `/api/incentive-programs/${ids.fixed}`, { ...body, version });
    const renamed = await ok('GET', `/api/incentive-programs/${ids.fixed}`);
    expect(renamed).toMatchObject({ programName: 'Q2 push (renamed)', resultCount: 2, version: version + 1 });
    expect(renamed.tiers.map((t: any) => t.rewardAmount)).toEqual(['100000.00', '250000.00']);
    expect((await call('PUT', `/api/incentive-programs/${ids.fixed}`, { ...body, version })).status).toBe(409);
  });

  it('submit -> approved by another user (the requester cannot approve it) -> APPROVED exactly once, even when the decision is delivered twice', async () => {
    expect(await ok('POST', '/api/incentive-payments/submit', { ids: [ids.a] }, clerk)).toEqual({ submitted: 1, ids: [ids.a], approvalLineCode: 'INCENTIVE_DEFAULT' });
    expect((await resultOf(ids.fixed, 4101)).status).toBe('PENDING_APPROVAL');
    // submitting again while pending is refused
    expect((await call('PUT', '/api/incentive-payments/submit', { ids: [ids.a] }, clerk)).body.code).toBe('B001');
    const request = await waitFor(async () => (await ok('GET', `/api/approvals/requests?targetType=INCENTIVE&targetId=${ids.a}`)).list[0], 'the approval request');
    expect(request).toMatchObject({ lineCode: 'INCENTIVE_DEFAULT', status: 'PENDING', requestedBy: clerkId });

    const self = await call('POST', `/api/approvals/requests/${request.requestId}/approve`, {}, clerk);
    expect([self.status, self.body.code]).toEqual([403, 'E403']);
    await ok('POST', `/api/approvals/requests/${request.requestId}/approve`, { comment: 'target met' }, approver);
    const approved = await waitFor(async () => {
      const r = await ok('GET', `/api/incentive-payments/${ids.a}`);
      return r.status === 'APPROVED' && r;
    }, 'the result to be approved');
    expect(approved).toMatchObject({ approvalRequestId: request.requestId, approvedBy: approverId, rejectReason: null, amount: '250000.00' });
    expect(approved.approvedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // the same APPROVAL_DECIDED delivered again: the consumer's processed_event claim makes it a duplicate ...
    const event = await p.db
      .selectFrom('event_outbox')
      .select(['event_id', 'event_key', 'event_type', 'target', 'subject', 'payload', 'created_at'])
      .where('event_type', '=', 'APPROVAL_DECIDED')
      .where('subject', '=', `INCENTIVE#${ids.a}`)
      .executeTakeFirstOrThrow();
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
    await p.db.transaction().execute((trx) => applyIncentiveDecision(trx, consumed));
    expect(await ok('GET', `/api/incentive-payments/${ids.a}`)).toEqual(approved);
    const logged = await p.db
      .selectFrom('data_change_log')
      .select(['action', 'user_id', 'request_id'])
      .where('table_name', '=', 'incentive_result')
      .where('record_id', '=', String(ids.a))
      .where('action', '=', 'APPROVE')
      .execute();
    expect(logged).toEqual([{ action: 'APPROVE', user_id: approverId, request_id: `event-${event.event_id}` }]);
  });

  it("rejected: the reason is kept; a recalculation makes it CALCULATED again and leaves the APPROVED result alone; cancel", async () => {
    await ok('POST', '/api/incentive-payments/submit', { ids: [ids.b] }, clerk);
    const request = await waitFor(async () => (await ok('GET', `/api/approvals/requests?targetType=INCENTIVE&targetId=${ids.b}`)).list[0], 'the approval request');
    await ok('POST', `/api/approvals/requests/${request.requestId}/reject`, { reason: 'contract D-5 under review' }, approver);
    const rejected = await waitFor(async () => {
      const r = await ok('GET', `/api/incentive-payments/${ids.b}`);
      return r.status === 'REJECTED' && r;
    }, 'the rejection');
    expect(rejected).toMatchObject({ rejectReason: 'contract D-5 under review', approvalRequestId: request.requestId, approvedBy: null, approvedAt: null });

    // the rejected row is replaced (same figures, CALCULATED again); A's APPROVED row is kept as it is
    expect(await ok('POST', `/api/incentive-programs/${ids.fixed}/calculate`)).toMatchObject({ created: 0, updated: 1, unchanged: 0, kept: 1, calculatedAmount: '100000.00' });
    expect((await results(ids.fixed)).map(figures)).toEqual([
      [4101, '3000000.00', 2, '250000.00', 'APPROVED'],
      [4102, '2999999.99', 1, '100000.00', 'CALCULATED'],
    ]);
    expect(await ok('GET', `/api/incentive-payments/${ids.b}`)).toMatchObject({ rejectReason: null, approvalRequestId: null });

    const cancelled = await ok('PUT', `/api/incentive-payments/${ids.b}/cancel`, { reason: 'paid outside the system' });
    expect(cancelled).toMatchObject({ resultId: ids.b, status: 'CANCELLED' });
    const approvedCancel = await call('POST', `/api/incentive-payments/${ids.a}/cancel`, { reason: 'no' });
    expect([approvedCancel.status, approvedCancel.body.code, approvedCancel.body.message]).toEqual([
      400,
      'B001',
      `Incentive result ${ids.a} is APPROVED; only CALCULATED or REJECTED results can be cancelled`,
    ]);
    // a cancelled result stays cancelled through a recalculation
    expect(await ok('POST', `/api/incentive-programs/${ids.fixed}/calculate`)).toMatchObject({ created: 0, updated: 0, kept: 2 });
    expect((await call('POST', '/api/incentive-payments/submit', { ids: [ids.b, 999999] })).body.data.errors).toEqual([
      { field: 'ids.1', message: 'incentive result 999999 does not exist' },
    ]);
  });

  it('a closed pay month refuses the calculation (B001); an approval that cannot start comes back REJECTED with its reason', async () => {
    // recruit count, 202503..202505, one tier >= 2 contracts: A has 2 (D-1, D-2) -> 30000.00; B and C have 1
    ids.count = (
      await ok('POST', '/api/incentive-programs', {
        programCode: 'RC-COUNT',
        programName: 'Two new contracts',
        metric: 'RECRUIT_COUNT',
        rewardType: 'FIXED',
        periodFrom: '202503',
        periodTo: '202505',
        payMonth: '202507',
        tiers: [{ tierNo: 1, threshold: 2, rewardAmount: '30000' }],
      })
    ).id;
    await ok('POST', `/api/incentive-programs/${ids.count}/activate`);
    await p.pool.query(`INSERT INTO period_close (settle_month, status, closed_at) VALUES ('202507', 'CLOSED', now())`);
    const closed = await call('POST', `/api/incentive-programs/${ids.count}/calculate`);
    expect([closed.status, closed.body.code, closed.body.message]).toEqual([
      400,
      'B001',
      'Settle month 202507 is closed: an incentive calculation refused (reopen it first)',
    ]);
    await p.pool.query(`UPDATE period_close SET status = 'OPEN' WHERE settle_month = '202507'`);
    expect(await ok('POST', `/api/incentive-programs/${ids.count}/calculate`)).toMatchObject({ measured: 3, qualified: 1, created: 1, calculatedAmount: '30000.00' });
    const [row] = await results(ids.count);
    expect(figures(row)).toEqual([4101, '2.00', 1, '30000.00', 'CALCULATED']);

    await ok('POST', '/api/incentive-payments/submit', { ids: [row.resultId], approvalLineCode: 'NOPE' }, clerk);
    const rejected = await waitFor(async () => {
      const r = await ok('GET', `/api/incentive-payments/${row.resultId}`);
      return r.status === 'REJECTED' && r;
    }, 'the refusal to start');
    expect(rejected).toMatchObject({ approvalRequestId: null, rejectReason: 'the approval could not start: unknown approval line NOPE' });

    // a closed month also refuses submissions and cancellations of its results
    await p.pool.query(`UPDATE period_close SET status = 'CLOSED' WHERE settle_month = '202507'`);
    expect((await call('POST', `/api/incentive-payments/${row.resultId}/cancel`, { reason: 'late' })).body.message).toBe(
      'Settle month 202507 is closed: cancelled incentive results refused (reopen it first)',
    );
    expect((await call('POST', '/api/incentive-payments/submit', { ids: [row.resultId] })).body.code).toBe('B001');
  });

  it('AGENT users see only their own results (list, detail and export filters)', async () => {
    const mine = await ok('GET', '/api/incentive-payments?sortField=resultId&sortOrder=ASC', undefined, agentA);
    expect(mine.list.map((r: any) => [r.agentId, r.programCode])).toEqual([
      [4101, 'Q2-PREMIUM'],
      [4101, 'RC-BONUS'],
      [4101, 'RC-COUNT'],
    ]);
    expect((await ok('GET', '/api/incentive-payments?agentId=4102', undefined, agentA)).total).toBe(0);
    expect((await call('GET', `/api/incentive-payments/${ids.b}`, undefined, agentA)).body.code).toBe('E404');
    expect((await ok('GET', `/api/incentive-payments/${ids.a}`, undefined, agentA)).agentId).toBe(4101);
    // the rest of the workflow is not the AGENT's
    expect((await call('POST', `/api/incentive-programs/${ids.fixed}/calculate`, undefined, agentA)).body.code).toBe('E403');
    expect((await call('POST', '/api/incentive-payments/submit', { ids: [ids.a] }, agentA)).body.code).toBe('E403');
  });

  it("the monthly run's entry calculates the ACTIVE programs paid in its month only, logged under the run", async () => {
    // C: 999999.99 + a contract of 0.01 dated 2025-05-01 = 1000000.00 -> exactly tier 1 of Q2-PREMIUM: 100000.00
    await p.pool.query(`INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, contract_date) VALUES (41007, 4103, 741, 'D-7', 0.01, '2025-05-01')`);
    const closed = await ok('POST', `/api/incentive-programs/${ids.pct}/close`);
    expect(closed).toMatchObject({ status: 'CLOSED', resultCount: 2 });
    expect((await call('POST', `/api/incentive-programs/${ids.pct}/calculate`)).body.code).toBe('B001');
    expect((await call('POST', `/api/incentive-programs/${ids.pct}/close`)).body.code).toBe('B001');

    // 202506: Q2-PREMIUM (ACTIVE) only; RC-BONUS is CLOSED, RC-COUNT is paid in 202507
    const counts = await calculateIncentivesDueIn(p.db, '202506', 9001);
    expect(counts).toEqual([
      {
        programId: ids.fixed,
        programCode: 'Q2-PREMIUM',
        settleMonth: '202506',
        measured: 3,
        qualified: 3,
        created: 1,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        kept: 2,
        calculatedAmount: '100000.00',
      },
    ]);
    const c = await resultOf(ids.fixed, 4103);
    expect(figures(c)).toEqual([4103, '1000000.00', 1, '100000.00', 'CALCULATED']);
    expect((await ok('GET', `/api/incentive-payments/${c.resultId}`)).calcBasis).toMatchObject({ measured: '1000000.00', tierNo: 1, runId: 9001 });
    const logged = await p.db
      .selectFrom('data_change_log')
      .select(['action', 'user_id', 'menu_code', 'request_id'])
      .where('table_name', '=', 'incentive_result')
      .where('record_id', '=', String(c.resultId))
      .execute();
    expect(logged).toEqual([{ action: 'CREATE', user_id: null, menu_code: 'INCENTIVE_PAY', request_id: 'run-9001' }]);
    expect(await calculateIncentivesDueIn(p.db, '202508', 9002)).toEqual([]);
  });
});
