import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentToken,
  api,
  insertLedger,
  insertSettle,
  readSheet,
  seedMiniBook,
  startContext,
  type Api,
  type Ctx,
  type MiniBook,
} from './api-helpers.js';

let ctx: Ctx;
let a: Api;
let book: MiniBook;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  const [c1, c2, c3] = book.contracts as [number, number, number];
  await insertLedger(ctx, 'recruit_ledger', {
    agentId: book.fc,
    contractId: c1,
    settleMonth: '202501',
    companyAmount: '12345.67',
    agentAmount: '6172.84',
    companyRate: '12.3457',
    reconcileStatus: 'MATCHED',
    policyNo: 'POL-1',
  });
  await insertLedger(ctx, 'recruit_ledger', {
    agentId: book.fc,
    contractId: c2,
    settleMonth: '202501',
    companyAmount: '100.00',
    agentAmount: '50.00',
    reconcileStatus: 'DIFF',
    policyNo: 'POL-2',
  });
  await insertLedger(ctx, 'recruit_ledger', {
    agentId: book.other,
    contractId: c3,
    settleMonth: '202502',
    companyAmount: '300.00',
    agentAmount: '150.00',
    policyNo: 'POL-3',
  });
  await insertLedger(ctx, 'maintain_ledger', {
    agentId: book.fc,
    contractId: c1,
    settleMonth: '202501',
    companyAmount: '10.00',
    agentAmount: '5.00',
    commissionYear: 3,
    policyNo: 'POL-1',
  });
  await insertLedger(ctx, 'maintain_ledger', {
    agentId: book.other,
    contractId: c3,
    settleMonth: '202501',
    companyAmount: '20.00',
    agentAmount: '10.00',
    policyNo: 'POL-3',
  });
  await ctx.pool.query(
    `INSERT INTO reconciliation (company_code, settle_month, expected_amount, actual_amount, diff_amount, recon_status, expected_count, actual_count)
     VALUES ('L001', '202501', '1000.00', '990.00', '10.00', 'DIFF', 3, 2), ('L001', '202502', '5.00', '5.00', '0.00', 'MATCHED', 1, 1)`,
  );
  const { rows: rules } = await ctx.pool.query<{ override_id: number }>(
    `INSERT INTO override_rule (from_grade, to_grade, override_pct, cap_amount, effective_from) VALUES (1, 3, 5, '300.00', '2000-01-01') RETURNING override_id`,
  );
  await ctx.pool.query(
    `INSERT INTO override_settle (settle_month, from_agent_id, to_agent_id, override_rule_id, base_amount, override_pct, override_amount, capped, calc_basis)
     VALUES ('202501', $1, $2, $3, '6227.84', '5', '300.00', true, '{"capAmount": "300.00", "uncappedAmount": "311.39"}')`,
    [book.fc, book.leader, rules[0]!.override_id],
  );
  await ctx.pool.query(
    `INSERT INTO chargeback (contract_id, agent_id, settle_month, lapse_month, lapse_month_diff, base_amount, cb_rate, cb_amount, installment_seq, installment_total)
     VALUES ($1, $2, '202501', '202501', 3, '300.00', '100', '100.00', 1, 3), ($1, $2, '202502', '202501', 3, '300.00', '100', '100.00', 2, 3)`,
    [c3, book.other],
  );
});

afterAll(async () => {
  await ctx?.close();
});

describe('recruit and maintain ledger lists', () => {
  it('filter by month, agent, contract, policy, company, reconcile status and status', async () => {
    const ids = async (query: string) =>
      (await a.get(`/api/ledger/recruit?${query}`)).body.data.list.map((r: any) => r.policyNo);
    expect(await ids('settleMonth=202501')).toEqual(['POL-1', 'POL-2']);
    expect(await ids(`agentId=${book.other}`)).toEqual(['POL-3']);
    expect(await ids(`contractId=${book.contracts[1]}`)).toEqual(['POL-2']);
    expect(await ids('policyNo=POL-1')).toEqual(['POL-1']);
    expect(await ids('companyCode=L001&settleMonth=202502')).toEqual(['POL-3']);
    expect(await ids('reconcileStatus=DIFF')).toEqual(['POL-2']);
    expect(await ids('status=CONFIRMED')).toEqual([]);
    expect(await ids('sortField=agentAmount&sortOrder=desc')).toEqual(['POL-1', 'POL-3', 'POL-2']);
    expect((await a.get('/api/ledger/recruit?reconcileStatus=WRONG')).body.code).toBe('E411');
  });

  it('returns money as strings with two places and rates without trailing zeros', async () => {
    const res = await a.get('/api/ledger/recruit?policyNo=POL-1');
    expect(res.body.data).toMatchObject({ total: 1, pageNum: 1, pageSize: 20, pages: 1 });
    expect(res.body.data.list[0]).toMatchObject({
      agentId: book.fc,
      agentName: 'Kim FC',
      commissionYear: 1,
      premium: '100000.00',
      companyRate: '12.3457',
      companyAmount: '12345.67',
      payoutRate: '50',
      agentAmount: '6172.84',
      reconcileStatus: 'MATCHED',
      successionFromAgentId: null,
    });
    const maintain = await a.get('/api/ledger/maintain?settleMonth=202501&agentId=' + book.fc);
    expect(maintain.body.data.list.map((r: any) => [r.policyNo, r.commissionYear, r.agentAmount])).toEqual([
      ['POL-1', 3, '5.00'],
    ]);
  });

  it('exports the same filtered rows as xlsx with money as text', async () => {
    const res = await a.get(
      '/api/ledger/recruit/excel?settleMonth=202501&sortField=agentAmount&sortOrder=DESC&lang=en',
    );
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    const sheet = await readSheet(res.raw);
    expect(sheet.header.slice(0, 4)).toEqual(['Ledger ID', 'Settle month', 'Contract ID', 'Policy no']);
    const policy = sheet.header.indexOf('Policy no');
    const amount = sheet.header.indexOf('Agent amount');
    const rate = sheet.header.indexOf('Company rate (%)');
    expect(sheet.rows.map((r) => [r[policy], r[amount], r[rate]])).toEqual([
      ['POL-1', 6172.84, 12.3457],
      ['POL-2', 50, 10],
    ]);
    const maintain = await readSheet((await a.get('/api/ledger/maintain/excel?agentId=' + book.other)).raw);
    expect(maintain.rows).toHaveLength(1);
  });

  it('AGENT users see only their own ledger rows; the EXPORT-guarded exports are refused to them (E403)', async () => {
    const token = await agentToken(ctx, book.fc);
    const list = await a.get('/api/ledger/recruit', token);
    expect(list.body.data.list.map((r: any) => r.agentId)).toEqual([book.fc, book.fc]);
    expect((await a.get(`/api/ledger/maintain?agentId=${book.other}`, token)).body.data.total).toBe(0);
    const exported = await a.get('/api/ledger/recruit/excel', token);
    expect(exported.status).toBe(403);
    expect(exported.body.code).toBe('E403');
  });
});

describe('exception ledger', () => {
  let pendingId = 0;

  it('registers an exception as PENDING with the direction of its type code', async () => {
    const res = await a.post('/api/ledger/exception', {
      agentId: book.fc,
      settleMonth: '202501',
      exceptionCode: 'PENALTY',
      amount: 1500.5,
      reason: 'late documents',
    });
    expect(res.status).toBe(200);
    pendingId = res.body.data.id;
    const list = await a.get(`/api/ledger/exception?agentId=${book.fc}`);
    expect(list.body.data.list[0]).toMatchObject({
      ledgerId: pendingId,
      exceptionCode: 'PENALTY',
      exceptionName: '제재금',
      direction: 'MINUS',
      amount: '1500.50',
      approveStatus: 'PENDING',
      status: 'NEW',
      source: 'MANUAL',
      recurringYn: 'N',
    });
  });

  it('rejects bad input: unknown code, unknown agent, zero amount, missing reason, recurring without an end', async () => {
    const base = {
      agentId: book.fc,
      settleMonth: '202501',
      exceptionCode: 'BONUS_SPECIAL',
      amount: '10.00',
      reason: 'r',
    };
    const err = async (body: object) => (await a.post('/api/ledger/exception', { ...base, ...body })).body;
    expect((await err({ exceptionCode: 'NOPE' })).data.errors[0].field).toBe('exceptionCode');
    expect((await err({ agentId: 999999 })).data.errors[0].field).toBe('agentId');
    expect((await err({ amount: '0.00' })).data.errors[0].field).toBe('amount');
    expect((await err({ reason: '' })).code).toBe('E411');
    expect((await err({ recurringYn: 'Y' })).data.errors[0].field).toBe('recurringUntil');
    const recurring = await a.post('/api/ledger/exception', {
      ...base,
      recurringYn: 'Y',
      recurringUntil: '202506',
      contractId: book.contracts[0],
    });
    expect(recurring.status).toBe(200);
    const row = (await a.get(`/api/ledger/exception?exceptionCode=BONUS_SPECIAL`)).body.data.list[0];
    expect(row).toMatchObject({
      direction: 'PLUS',
      recurringYn: 'Y',
      recurringUntil: '202506',
      policyNo: 'POL-1',
    });
  });

  it('approves only PENDING rows (B001 afterwards) and records the approver', async () => {
    const res = await a.put(`/api/ledger/exception/${pendingId}/approve`);
    expect(res.status).toBe(200);
    const row = (await a.get(`/api/ledger/exception?agentId=${book.fc}&exceptionCode=PENALTY`)).body.data
      .list[0];
    expect(row.approveStatus).toBe('APPROVED');
    expect(row.approverId).toBeTypeOf('number');
    expect(row.approveDate).not.toBeNull();
    expect((await a.put(`/api/ledger/exception/${pendingId}/approve`)).body.code).toBe('B001');
    expect((await a.put(`/api/ledger/exception/${pendingId}/reject`, { reason: 'too late' })).body.code).toBe(
      'B001',
    );
    expect((await a.put('/api/ledger/exception/999999/approve')).body.code).toBe('E404');
  });

  it('rejects a PENDING row with a reason (required)', async () => {
    const created = await a.post('/api/ledger/exception', {
      agentId: book.other,
      settleMonth: '202501',
      exceptionCode: 'MISC_PLUS',
      amount: '5',
      reason: 'x',
    });
    const id = created.body.data.id;
    expect((await a.put(`/api/ledger/exception/${id}/reject`, {})).body.code).toBe('E411');
    expect((await a.put(`/api/ledger/exception/${id}/reject`, { reason: 'not agreed' })).status).toBe(200);
    const row = (await a.get(`/api/ledger/exception?approveStatus=REJECTED`)).body.data.list[0];
    expect(row).toMatchObject({ ledgerId: id, rejectReason: 'not agreed' });
    expect((await a.put(`/api/ledger/exception/${id}/approve`)).body.code).toBe('B001');
  });

  it('refuses to add or approve an exception into a CONFIRMED month (B001)', async () => {
    await insertSettle(ctx, { agentId: book.leader, settleMonth: '202503', status: 'CONFIRMED' });
    const res = await a.post('/api/ledger/exception', {
      agentId: book.leader,
      settleMonth: '202503',
      exceptionCode: 'MISC_PLUS',
      amount: '5',
      reason: 'x',
    });
    expect(res.body.code).toBe('B001');
  });

  it('AGENT users cannot register or approve (E403) and see only their own exceptions', async () => {
    const token = await agentToken(ctx, book.other);
    expect(
      (
        await a.post(
          '/api/ledger/exception',
          {
            agentId: book.other,
            settleMonth: '202501',
            exceptionCode: 'MISC_PLUS',
            amount: '5',
            reason: 'x',
          },
          token,
        )
      ).status,
    ).toBe(403);
    expect((await a.put(`/api/ledger/exception/${pendingId}/approve`, undefined, token)).status).toBe(403);
    const list = await a.get('/api/ledger/exception', token);
    expect(list.body.data.list.map((r: any) => r.agentId)).toEqual([book.other]);
    // LEDGER_EXCEPTION has no EXPORT: its export needs READ and keeps the row filter
    const sheet = await readSheet((await a.get('/api/ledger/exception/excel?lang=en', token)).raw);
    expect(sheet.rows.map((r) => r[sheet.header.indexOf('Agent')])).toEqual([book.other]);
  });
});

describe('reconciliation, override and chargeback lists', () => {
  it('lists reconciliation rows by month and status, and exports them', async () => {
    const res = await a.get('/api/recon?reconStatus=DIFF');
    expect(res.body.data.list).toEqual([
      expect.objectContaining({
        companyCode: 'L001',
        companyName: 'Life One',
        settleMonth: '202501',
        expectedAmount: '1000.00',
        actualAmount: '990.00',
        diffAmount: '10.00',
        expectedCount: 3,
        actualCount: 2,
      }),
    ]);
    expect((await a.get('/api/recon?settleMonth=202502')).body.data.list[0].reconStatus).toBe('MATCHED');
    const sheet = await readSheet((await a.get('/api/recon/excel')).raw);
    expect(sheet.rows).toHaveLength(2);
  });

  it('lists overrides with both agents, the cap and the capped flag; filters by receiver', async () => {
    const res = await a.get(`/api/override-settles?settleMonth=202501&toAgentId=${book.leader}`);
    expect(res.body.data.list).toEqual([
      expect.objectContaining({
        fromAgentId: book.fc,
        fromAgentName: 'Kim FC',
        toAgentId: book.leader,
        toAgentName: 'Lee Leader',
        baseAmount: '6227.84',
        overridePct: '5',
        overrideAmount: '300.00',
        capped: true,
        capAmount: '300.00',
      }),
    ]);
    expect((await a.get(`/api/override-settles?fromAgentId=${book.other}`)).body.data.total).toBe(0);
  });

  it('lists chargeback installments by due month, agent and contract', async () => {
    const res = await a.get(`/api/chargebacks?contractId=${book.contracts[2]}`);
    expect(
      res.body.data.list.map((r: any) => [r.settleMonth, r.installmentSeq, r.installmentTotal, r.cbAmount]),
    ).toEqual([
      ['202501', 1, 3, '100.00'],
      ['202502', 2, 3, '100.00'],
    ]);
    expect((await a.get(`/api/chargebacks?settleMonth=202502&agentId=${book.other}`)).body.data.total).toBe(
      1,
    );
    expect((await a.get(`/api/chargebacks?agentId=${book.fc}`)).body.data.total).toBe(0);
  });

  it('AGENT users have no access to the override, chargeback and reconciliation lists (E403)', async () => {
    const token = await agentToken(ctx, book.fc);
    for (const url of ['/api/override-settles', '/api/chargebacks', '/api/recon']) {
      expect((await a.get(url, token)).status, url).toBe(403);
    }
  });
});
