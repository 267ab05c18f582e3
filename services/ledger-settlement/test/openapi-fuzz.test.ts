import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFuzzReport, fuzzOpenApi, type FuzzReport } from '@csp/service-kit/testing';
import { insertLedger, insertSettle, seedMiniBook, startContext, type Ctx } from './api-helpers.js';

const RUNS = 15;
let ctx: Ctx;
let report: FuzzReport;

/** Rows with small ids in every state, so generated ids reach the workflows' logic, not just E404. */
async function seedRows(): Promise<void> {
  const book = await seedMiniBook(ctx);
  for (const [i, contractId] of book.contracts.entries()) {
    const agentId = i < 2 ? book.fc : book.other;
    await insertLedger(ctx, 'recruit_ledger', { agentId, contractId, settleMonth: '202501', companyAmount: '10000.00', agentAmount: '5000.00' });
    await insertLedger(ctx, 'maintain_ledger', { agentId, contractId, settleMonth: '202502', companyAmount: '1000.00', agentAmount: '500.00' });
  }
  for (const [i, status] of ['CALCULATED', 'CONFIRMED', 'HOLD', 'CALCULATED', 'PAID'].entries()) {
    await insertSettle(ctx, { agentId: [book.fc, book.leader, book.other][i % 3]!, settleMonth: `20250${i + 1}`, recruit: '5000.00', gross: '5000.00', tax: '165.00', net: '4835.00', status });
  }
}

beforeAll(async () => {
  ctx = await startContext();
  await seedRows();
  report = await fuzzOpenApi({ app: ctx.app, token: ctx.adminToken, runsPerOperation: RUNS });
  console.log(formatFuzzReport(report));
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('OpenAPI fuzz (every operation, fixed seed)', () => {
  it(`sends ${RUNS} generated requests to every operation`, () => {
    expect(report.operations.length).toBeGreaterThan(0);
    expect(report.operations.filter((o) => o.runs !== RUNS)).toEqual([]);
  });

  it('never answers with a 5xx and always with the envelope', () => {
    expect(report.failures).toEqual([]);
    expect(report.serverErrors).toBe(0);
  });
});
