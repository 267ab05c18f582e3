import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoBook, writeCarrierFiles, type DemoBookResult } from '@csp/demo-data';
import { createFieldCipher } from '@csp/service-kit';
import { TEST_ENCRYPT_KEY } from '@csp/service-kit/testing';
import { gatewayClient, startPlatform, TEST_ADMIN_PASSWORD, type Platform } from './e2e-platform.js';

/**
 * The demo book paid end to end through the gateway, API only (issue 23 item 4): a month run,
 * confirm-month, payments generate -> taxes -> deductions -> transfer file, every agent with a
 * positive gross paid (the demo book gives every agent a bank account, encrypted with the services' key).
 */
let p: Platform;
let token = '';
let book: DemoBookResult;
const { ok, runMonth } = gatewayClient(
  () => p,
  () => token,
);

beforeAll(async () => {
  p = await startPlatform({ withPaymentTax: true });
  book = await generateDemoBook(p.pool, {
    agents: 60,
    contracts: 3_000,
    seed: 'payday',
    today: '2025-08-15',
    encryptKey: TEST_ENCRYPT_KEY,
  });
  token = await p.login('admin', TEST_ADMIN_PASSWORD);
}, 180_000);

afterAll(async () => {
  await p?.close();
});

describe('the demo book can be paid', () => {
  it('gives every demo agent a bank account and every carrier an intake profile with field mappings', async () => {
    const agents = await ok('GET', '/api/agents?pageSize=500');
    expect(agents.total).toBe(book.agentIds.last - book.agentIds.first + 1);
    for (const a of agents.list) expect(a.agentName, `agent ${a.agentId}`).toMatch(/^[가-힣]{3}$/);
    const cipher = createFieldCipher(TEST_ENCRYPT_KEY);
    const stored = await p.pool.query<{ agent_id: string; bank_code: string | null; account_no: string | null }>(
      'SELECT agent_id, bank_code, account_no FROM agent ORDER BY agent_id',
    );
    expect(stored.rows).toHaveLength(agents.total);
    for (const r of stored.rows) {
      expect(r.bank_code, `agent ${r.agent_id}`).toMatch(/^\d{3}$/);
      expect(cipher.decrypt(r.account_no!), `agent ${r.agent_id}`).toMatch(/^\d{3}-\d{6}-\d{2}$/);
    }
    const one = await ok('GET', `/api/agents/${book.agentIds.first}`);
    expect(one.bankCode).toMatch(/^\d{3}$/);
    expect(one.accountNo).toMatch(/^\d{3}-\*{6}-\*{2}$|\*/);
    const profiles = await p.pool.query<{ n: number; mapped: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE EXISTS (
                SELECT 1 FROM company_field_mapping m WHERE m.company_code = cp.company_code))::int AS mapped
         FROM company_profile cp`,
    );
    expect(book.carrierProfiles).toBe(book.companies);
    expect(profiles.rows[0]).toEqual({ n: book.companies, mapped: book.companies });
  });

  it('runs the month, confirms it and pays every agent with a positive gross: generate, taxes, deductions, transfer file', async () => {
    const month = book.lastClosedMonth;
    await runMonth(month);
    // The month's demo carrier files (what start.sh --demo writes) use the profiles the book was loaded with.
    const dir = await mkdtemp(join(tmpdir(), 'demo-carrier-'));
    try {
      const files = await writeCarrierFiles(p.pool, { outDir: dir, settleMonth: month });
      expect(files.profilesSeeded).toBe(0);
      expect(files.files.map((f) => f.layout).slice(0, 2)).toEqual(['XLSX', 'CSV_CP949']);
      expect(files.files.length).toBe(book.companies);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const confirmed = await ok('POST', '/api/settle/confirm-month', { settleMonth: month });
    expect(confirmed.confirmed).toBeGreaterThan(0);

    const settle = await ok('GET', `/api/settle?settleMonth=${month}&pageSize=500`);
    const positive = settle.list.filter((r: any) => r.status === 'CONFIRMED' && !r.grossAmount.startsWith('-') && r.grossAmount !== '0.00');
    expect(positive.length).toBeGreaterThan(30);

    const generated = await ok('POST', `/api/payments/generate?settleMonth=${month}`);
    expect(generated).toEqual({ created: positive.length, skipped: [] });
    expect((await ok('POST', `/api/payments/calculate-taxes?settleMonth=${month}`)).calculated).toBe(positive.length);
    await ok('POST', `/api/payments/apply-deductions?settleMonth=${month}`);

    const file = await ok('POST', '/api/payments/transfer-file', { settleMonth: month, bankFormat: 'CSV' });
    expect(file.count).toBe(positive.length);
    const payments = await ok('GET', `/api/payments?settleMonth=${month}&pageSize=500`);
    expect(payments.list).toHaveLength(positive.length);
    expect(payments.list.every((x: any) => x.status === 'SENT')).toBe(true);
    expect(new Set(payments.list.map((x: any) => x.agentId))).toEqual(new Set(positive.map((r: any) => r.agentId)));
    // The file's total is the sum of the payments' nets, to the cent (integer cents, never a JS float).
    const cents = (s: string) => BigInt(s.replace('.', ''));
    const total = payments.list.reduce((acc: bigint, x: any) => acc + cents(x.netAmount), 0n);
    expect(cents(file.totalAmount)).toBe(total);
  });
});
