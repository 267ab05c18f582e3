import { calcPaymentTax } from '@csp/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, seedFixture, stepOf, type Fixture, type Harness } from './helpers.js';

let h: Harness;
let f: Fixture;

beforeAll(async () => {
  h = await createHarness();
  f = await seedFixture(h.db);
});

afterAll(async () => {
  await h?.close();
});

type Status = 'PENDING' | 'SENT' | 'SUCCESS' | 'FAIL';

/** A payment with its taxes computed by the domain (rule 5) at the seeded rates. */
async function pay(
  agentId: number,
  settleMonth: string,
  amount: string,
  status: Status = 'SUCCESS',
): Promise<void> {
  const agent = await h.db
    .selectFrom('agent')
    .select(['tax_type', 'vat_type'])
    .where('agent_id', '=', agentId)
    .executeTakeFirstOrThrow();
  const tax = calcPaymentTax({ amount, taxType: agent.tax_type, vatType: agent.vat_type });
  await h.db
    .insertInto('payment')
    .values({
      agent_id: agentId,
      settle_month: settleMonth,
      amount,
      status,
      income_tax_amount: tax.incomeTax.toFixed(2),
      local_tax_amount: tax.localTax.toFixed(2),
      vat_amount: tax.vat.toFixed(2),
      net_amount: tax.net.toFixed(2),
    })
    .execute();
}

/** A tax invoice as ledger-settlement's tax-invoice area issues it (one ISSUED per agent and month). */
async function invoice(agentId: number, settleMonth: string, supply: string, vat: string, total: string, status: 'ISSUED' | 'CANCELLED' = 'ISSUED'): Promise<void> {
  const n = await h.db.selectFrom('tax_invoice').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  await h.db
    .insertInto('tax_invoice')
    .values({
      invoice_no: `TI-${settleMonth}-${agentId}-${Number(n.n) + 1}`,
      agent_id: agentId,
      settle_month: settleMonth,
      supply_amount: supply,
      vat_amount: vat,
      total_amount: total,
      issue_date: '2025-01-10',
      status,
    })
    .execute();
}

async function annual(year: number) {
  return h.db
    .selectFrom('agent_annual_income')
    .select([
      'agent_id',
      'total_amount',
      'total_income_tax',
      'total_local_tax',
      'total_vat',
      'total_net',
      'payment_count',
    ])
    .where('settle_year', '=', year)
    .orderBy('agent_id')
    .execute();
}

async function withholding(quarter: string) {
  return h.db
    .selectFrom('withholding_tax_report')
    .select([
      'agent_id',
      'org_id',
      'total_income',
      'total_withheld',
      'total_local_tax',
      'payment_count',
      'file_status',
    ])
    .where('settle_quarter', '=', quarter)
    .orderBy('agent_id')
    .execute();
}

async function vat(quarter: string) {
  return h.db
    .selectFrom('vat_report')
    .select([
      'settle_quarter',
      'total_sales',
      'total_purchase',
      'total_vat_payable',
      'tax_invoice_count',
      'file_status',
    ])
    .where('settle_quarter', '=', quarter)
    .execute();
}

describe('year-end and quarterly tax steps', () => {
  it('aggregates the year, the fourth quarter and its VAT in December with exact sums', async () => {
    // business agent: 3.3 % + 10 % local, no VAT
    await pay(f.business, '202401', '1000000.00'); // 33000 / 3300 / net 963700.00
    await pay(f.business, '202411', '333333.33'); // 11000 / 1100 / net 321233.33
    await pay(f.business, '202412', '500000.00', 'FAIL'); // excluded
    await pay(f.business, '202312', '777.00'); // other year
    // taxable agent: VAT 10 %
    await pay(f.taxable, '202410', '500000.00', 'PENDING'); // 16500 / 1650 / vat 50000 / net 531850.00
    // VAT is rule 1's percentage at scale 2 (DECISIONS "Payments and tax"): 12345.678 -> 12345.68
    await pay(f.taxable, '202412', '123456.78', 'SENT'); // 4074 / 407 / vat 12345.68 / net 131321.46
    await pay(f.taxable, '202409', '100.00'); // Q3: in the year, not in the quarter: 3 / 0 / vat 10 / net 107.00
    // other-income agent: 8.8 %, exempt
    await pay(f.other, '202412', '200000.00'); // 17600 / 1760 / net 180640.00
    // tax invoices of the taxable agent: 202410 ISSUED, 202412 issued and CANCELLED, 202409 ISSUED (Q3)
    await invoice(f.taxable, '202410', '500000.00', '50000.00', '550000.00');
    await invoice(f.taxable, '202412', '123456.78', '12345.68', '135802.46', 'CANCELLED');
    await invoice(f.taxable, '202409', '100.00', '10.00', '110.00');

    const status = await h.runMonth('202412');
    expect(status.run).toMatchObject({ status: 'COMPLETED', skippedCount: 0 });
    expect(stepOf(status, 'yearEndIncomeAggregate')).toMatchObject({
      status: 'COMPLETED',
      skipped: false,
      totalCount: 3,
      successCount: 3,
    });
    expect(stepOf(status, 'withholdingTaxQuarterly')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 3,
      successCount: 3,
      skippedCount: 0,
    });
    expect(stepOf(status, 'vatReportQuarterly')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 1,
      successCount: 1,
    });

    expect(await annual(2024)).toEqual([
      {
        agent_id: f.business,
        total_amount: '1333333.33',
        total_income_tax: '44000.00',
        total_local_tax: '4400.00',
        total_vat: '0.00',
        total_net: '1284933.33',
        payment_count: 2,
      },
      {
        agent_id: f.taxable,
        total_amount: '623556.78',
        total_income_tax: '20577.00',
        total_local_tax: '2057.00',
        total_vat: '62355.68', // 50000 + 12345.68 + 10
        total_net: '663278.46', // 531850.00 + 131321.46 + 107.00
        payment_count: 3,
      },
      {
        agent_id: f.other,
        total_amount: '200000.00',
        total_income_tax: '17600.00',
        total_local_tax: '1760.00',
        total_vat: '0.00',
        total_net: '180640.00',
        payment_count: 1,
      },
    ]);
    expect(await annual(2023)).toEqual([]);

    expect(await withholding('2024-Q4')).toEqual([
      {
        agent_id: f.business,
        org_id: f.orgId,
        total_income: '333333.33',
        total_withheld: '11000.00',
        total_local_tax: '1100.00',
        payment_count: 1,
        file_status: 'PENDING',
      },
      {
        agent_id: f.taxable,
        org_id: f.orgId,
        total_income: '623456.78',
        total_withheld: '20574.00',
        total_local_tax: '2057.00',
        payment_count: 2,
        file_status: 'PENDING',
      },
      {
        agent_id: f.other,
        org_id: f.otherOrgId,
        total_income: '200000.00',
        total_withheld: '17600.00',
        total_local_tax: '1760.00',
        payment_count: 1,
        file_status: 'PENDING',
      },
    ]);
    expect(await vat('2024-Q4')).toEqual([
      {
        settle_quarter: '2024-Q4',
        total_sales: '623456.78',
        total_purchase: '0.00',
        total_vat_payable: '62345.68', // 50000 + 12345.68
        // ISSUED invoices of 202410-202412: 202410 only = 1 (202412's is CANCELLED, 202409 is Q3); the two
        // payments with VAT > 0 do not count by themselves
        tax_invoice_count: 1,
        file_status: 'PENDING',
      },
    ]);
  });

  it('leaves COMPLETED reports alone, replaces PENDING ones and drops agents without payments on a re-run', async () => {
    await h.db
      .updateTable('withholding_tax_report')
      .set({ file_status: 'COMPLETED' })
      .where('agent_id', '=', f.other)
      .execute();
    await h.db
      .updateTable('payment')
      .set({ status: 'FAIL' })
      .where('agent_id', '=', f.business)
      .where('settle_month', '=', '202411')
      .execute();
    await pay(f.other, '202410', '1000.00');
    // 202412 invoiced again after the cancellation
    await invoice(f.taxable, '202412', '123456.78', '12345.68', '135802.46');

    const status = await h.runMonth('202412');
    expect(stepOf(status, 'withholdingTaxQuarterly')).toMatchObject({
      totalCount: 2,
      successCount: 1,
      skippedCount: 1,
    });
    expect(
      (await withholding('2024-Q4')).map((r) => [r.agent_id, r.total_income, r.payment_count, r.file_status]),
    ).toEqual([
      [f.taxable, '623456.78', 2, 'PENDING'],
      [f.other, '200000.00', 1, 'COMPLETED'],
    ]);
    expect((await annual(2024)).map((r) => [r.agent_id, r.total_amount, r.payment_count])).toEqual([
      [f.business, '1000000.00', 1],
      [f.taxable, '623556.78', 3],
      [f.other, '201000.00', 2],
    ]);

    await h.db
      .updateTable('vat_report')
      .set({ file_status: 'COMPLETED' })
      .where('settle_quarter', '=', '2024-Q4')
      .execute();
    // ISSUED now: 202410 + 202412 = 2 (computed by the run above, while the report was PENDING)
    expect((await vat('2024-Q4'))[0]!.tax_invoice_count).toBe(2);
    await pay(f.taxable, '202411', '10.00');
    await invoice(f.taxable, '202411', '10.00', '1.00', '11.00');
    const again = await h.runMonth('202412');
    expect(stepOf(again, 'vatReportQuarterly')).toMatchObject({
      totalCount: 1,
      successCount: 0,
      skippedCount: 1,
    });
    expect((await vat('2024-Q4'))[0]).toMatchObject({
      total_sales: '623456.78',
      tax_invoice_count: 2, // the COMPLETED row keeps 2: the 202411 invoice came after it
      file_status: 'COMPLETED',
    });
  });

  it('runs the quarterly steps but not the year-end step in the last month of a quarter', async () => {
    await pay(f.taxable, '202503', '1000.00');
    await invoice(f.taxable, '202503', '1000.00', '100.00', '1100.00');
    const status = await h.runMonth('202503');
    expect(stepOf(status, 'yearEndIncomeAggregate')).toMatchObject({
      skipped: true,
      skipReason: 'skipped: not the last month of the year',
    });
    expect(stepOf(status, 'withholdingTaxQuarterly')).toMatchObject({
      skipped: false,
      totalCount: 1,
      successCount: 1,
    });
    expect(await vat('2025-Q1')).toEqual([
      {
        settle_quarter: '2025-Q1',
        total_sales: '1000.00',
        total_purchase: '0.00',
        total_vat_payable: '100.00',
        tax_invoice_count: 1, // the 202503 invoice; the 2024 ones are other quarters
        file_status: 'PENDING',
      },
    ]);
    expect(await annual(2025)).toEqual([]);
  });
});
