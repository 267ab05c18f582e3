import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, readSheet, seedMiniBook, startContext, type Api, type Ctx, type MiniBook } from './api-helpers.js';

/** Tax invoices and the carrier reply (issue 15) through the API, on SQL-seeded payments and ledgers. */
const M = '202502';
let ctx: Ctx;
let a: Api;
let book: MiniBook;

async function payment(agentId: number, amount: string, vat: string, calculated = true, status = 'PENDING') {
  await ctx.pool.query(
    `INSERT INTO payment (agent_id, settle_month, amount, vat_amount, net_amount, status, tax_calculated_at)
     VALUES ($1, $2, $3, $4, $3, $5, $6)`,
    [agentId, M, amount, vat, status, calculated ? new Date() : null],
  );
}

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  await ctx.pool.query(`UPDATE agent SET vat_type = 'TAXABLE' WHERE agent_id = ANY($1)`, [[book.fc, book.leader]]);
});

afterAll(async () => {
  await ctx?.close();
});

describe('tax invoices', () => {
  it('issues one invoice per TAXABLE agent and month of payment: supply = payments, VAT = their VAT', async () => {
    await payment(book.fc, '1000000.00', '100000.00');
    await payment(book.fc, '500.00', '50.00');
    await payment(book.fc, '999.00', '99.90', true, 'FAIL'); // failed: not invoiced
    await payment(book.leader, '2000.00', '0.00', false); // tax not calculated yet
    await payment(book.other, '3000.00', '0.00'); // not TAXABLE
    const res = await a.post('/api/tax-invoices/issue', { settleMonth: M, issueDate: '2025-03-05' });
    expect(res.body.data).toEqual({ issued: 1, alreadyIssued: 0, notCalculated: 1 });
    const list = (await a.get(`/api/tax-invoices?settleMonth=${M}`)).body.data.list;
    expect(list.map((i: any) => [i.invoiceNo, i.agentId, i.supplyAmount, i.vatAmount, i.totalAmount, i.issueDate, i.status, i.paymentId])).toEqual([
      [`TI-${M}-${book.fc}-1`, book.fc, '1000500.00', '100050.00', '1100550.00', '2025-03-05', 'ISSUED', null],
    ]);
    expect((await a.post('/api/tax-invoices/issue', { settleMonth: M })).body.data).toEqual({ issued: 0, alreadyIssued: 1, notCalculated: 1 });
  });

  it('a cancelled invoice can be issued again under the next number', async () => {
    const id = (await a.get(`/api/tax-invoices?settleMonth=${M}`)).body.data.list[0].invoiceId;
    expect((await a.put(`/api/tax-invoices/${id}/cancel`, {})).body.code).toBe('E411');
    expect((await a.put(`/api/tax-invoices/${id}/cancel`, { reason: 'wrong business number' })).body.data).toMatchObject({ status: 'CANCELLED', cancelReason: 'wrong business number' });
    expect((await a.put(`/api/tax-invoices/${id}/cancel`, { reason: 'again' })).body.code).toBe('B001');
    expect((await a.post('/api/tax-invoices/issue', { settleMonth: M, agentId: book.fc })).body.data.issued).toBe(1);
    const issued = (await a.get(`/api/tax-invoices?settleMonth=${M}&status=ISSUED`)).body.data.list;
    expect(issued.map((i: any) => i.invoiceNo)).toEqual([`TI-${M}-${book.fc}-2`]);
  });
});

describe('carrier reply', () => {
  beforeAll(async () => {
    const [c1, c2, c3] = book.contracts as [number, number, number];
    await ctx.pool.query(
      `INSERT INTO recruit_ledger (contract_id, agent_id, policy_no, company_code, commission_year, settle_month, company_amount,
         reported_company_amount, reconcile_status, reconcile_diff) VALUES
         ($1, $3, 'POL-1', 'L001', 1, $4, 1000.00, 1100.00, 'DIFF', 100.00),
         ($2, $3, 'POL-2', 'L001', 1, $4, 500.00, 500.00, 'MATCHED', 0.00)`,
      [c1, c2, book.fc, M],
    );
    await ctx.pool.query(
      `INSERT INTO maintain_ledger (contract_id, agent_id, policy_no, company_code, commission_year, settle_month, company_amount,
         reported_company_amount, reconcile_status, reconcile_diff) VALUES ($1, $2, 'POL-3', 'L001', 2, $3, 300.00, 250.50, 'DIFF', -49.50)`,
      [c3, book.other, M],
    );
    const raw = await ctx.pool.query<{ raw_id: number }>(
      `INSERT INTO raw_commission_data (company_code, settle_month, data_type, raw_content, parse_status, reported_amount)
       VALUES ('L001', $1, 'RECRUIT', '{"policy":"X-9"}', 'ERROR', 77.70), ('L001', $1, 'RECRUIT', '{}', 'OK', 1.00) RETURNING raw_id`,
      [M],
    );
    await ctx.pool.query(
      `INSERT INTO parse_error_log (raw_id, company_code, settle_month, error_type, error_message)
       VALUES ($1, 'L001', $2, 'NO_POLICY', 'policy X-9 not found')`,
      [raw.rows[0]!.raw_id, M],
    );
  });

  it('generates the reply: its rows are the DIFF ledger rows and the unmatched raw rows with the reason', async () => {
    const res = await a.post('/api/carrier-replies/generate', { companyCode: 'L001', settleMonth: M });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ companyCode: 'L001', settleMonth: M, diffCount: 2, unmatchedCount: 1, diffTotal: '50.50', status: 'GENERATED' });
    const file = await a.get(`/api/carrier-replies/${res.body.data.replyId}/download`);
    expect(file.status).toBe(200);
    const sheet = await readSheet(file.raw);
    expect(sheet.header).toEqual(['Kind', 'Source', 'Row ID', 'Policy no', 'Commission year', 'Carrier amount', 'Our amount', 'Difference', 'Reason']);
    const diffRows = await ctx.pool.query(
      `SELECT policy_no FROM recruit_ledger WHERE reconcile_status = 'DIFF' UNION ALL SELECT policy_no FROM maintain_ledger WHERE reconcile_status = 'DIFF' ORDER BY 1`,
    );
    expect(sheet.rows.filter((r) => r[0] === 'DIFF').map((r) => r[3]).sort()).toEqual(diffRows.rows.map((r) => r.policy_no));
    expect(sheet.rows.map((r) => [r[0], r[1], r[3], r[5], r[6], r[7], r[8]])).toEqual([
      ['DIFF', 'maintain_ledger', 'POL-3', 250.5, 300, -49.5, 'carrier amount differs from ours by -49.50'],
      ['DIFF', 'recruit_ledger', 'POL-1', 1100, 1000, 100, 'carrier amount differs from ours by 100.00'],
      ['UNMATCHED', 'raw_commission_data', undefined, 77.7, undefined, undefined, 'NO_POLICY: policy X-9 not found'],
    ]);
  });

  it('is sent once; a SENT reply is not generated again (B001)', async () => {
    const id = (await a.get('/api/carrier-replies?companyCode=L001')).body.data.list[0].replyId;
    expect((await a.put(`/api/carrier-replies/${id}/send`, { note: 'mailed' })).body.data).toMatchObject({ status: 'SENT', sentNote: 'mailed' });
    expect((await a.put(`/api/carrier-replies/${id}/send`, {})).body.code).toBe('B001');
    expect((await a.post('/api/carrier-replies/generate', { companyCode: 'L001', settleMonth: M })).body.code).toBe('B001');
    expect((await a.post('/api/carrier-replies/generate', { companyCode: 'NOPE', settleMonth: M })).body.code).toBe('E411');
  });
});
