import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { moneyColumn, rateColumn, writeSpreadsheet, type SpreadsheetColumn } from '../src/index.js';

interface Row {
  id: number;
  premium: string | null;
  rate_pct: string | null;
  paid: { amount: string };
}

async function exportSheet(rows: Row[], columns: Array<SpreadsheetColumn<Row>>) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeSpreadsheet(out, { sheetName: 'Data', columns, rows });
  await finished(out);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  return workbook.getWorksheet('Data')!;
}

const columns: Array<SpreadsheetColumn<Row>> = [
  { header: 'ID', key: 'id' },
  moneyColumn('Premium', 'premium'),
  rateColumn('Rate (%)', 'rate_pct'),
  moneyColumn('Paid', 'paid_amount', { width: 20, value: (r) => r.paid.amount }),
];

describe('moneyColumn / rateColumn', () => {
  it('write money and rates as number cells with the exact value; money as #,##0.00; null stays empty', async () => {
    const sheet = await exportSheet(
      [
        { id: 1, premium: '1234567.89', rate_pct: '3.3000', paid: { amount: '0.5' } },
        { id: 2, premium: null, rate_pct: null, paid: { amount: '-1200.005' } },
        { id: 3, premium: '9999999999999.99', rate_pct: '12.3457', paid: { amount: '100' } },
        { id: 4, premium: '0.00', rate_pct: '12.35', paid: { amount: '0' } },
      ],
      columns,
    );
    expect(sheet.getRow(1).values).toEqual([undefined, 'ID', 'Premium', 'Rate (%)', 'Paid']);
    const cells = (col: number) => [2, 3, 4].map((r) => sheet.getRow(r).getCell(col));

    const premium = cells(2);
    expect(premium.map((c) => c.value)).toEqual([1234567.89, null, 9999999999999.99]);
    expect(premium.map((c) => c.type)).toEqual([ExcelJS.ValueType.Number, ExcelJS.ValueType.Null, ExcelJS.ValueType.Number]);
    expect([premium[0]!.numFmt, premium[2]!.numFmt]).toEqual(['#,##0.00', '#,##0.00']);

    const rates = cells(3);
    expect(rates.map((c) => c.value)).toEqual([3.3, null, 12.3457]);
    // a rate with two decimals is a rate, not money: general format
    const twoPlaces = sheet.getRow(5).getCell(3);
    expect([twoPlaces.value, twoPlaces.numFmt ?? null]).toEqual([12.35, null]);
    expect(rates.map((c) => c.type)).toEqual([ExcelJS.ValueType.Number, ExcelJS.ValueType.Null, ExcelJS.ValueType.Number]);

    // The custom getter reads another field; money() rounds HALF_UP to 2 places first.
    const paid = cells(4);
    expect(paid.map((c) => c.value)).toEqual([0.5, -1200.01, 100]);
    expect(paid.map((c) => c.numFmt)).toEqual(['#,##0.00', '#,##0.00', '#,##0.00']);
    expect([sheet.getColumn(2).width, sheet.getColumn(3).width, sheet.getColumn(4).width]).toEqual([16, 15, 20]);
  });

  it('format through money()/rate() text, never a JS number', () => {
    const [money, rate] = [moneyColumn<Row>('P', 'premium'), rateColumn<Row>('R', 'rate_pct')];
    const row: Row = { id: 1, premium: '12345678901234.565', rate_pct: '0.12345', paid: { amount: '0' } };
    expect([money.numeric, rate.numeric]).toEqual(['money', true]);
    expect(money.value!(row)).toBe('12345678901234.57');
    expect(rate.value!(row)).toBe('0.1235');
    expect(money.value!({ ...row, premium: null })).toBeNull();
  });

  it('a money value beyond 15 significant digits stays exact text', async () => {
    const sheet = await exportSheet([{ id: 1, premium: '12345678901234.56', rate_pct: '5', paid: { amount: '1' } }], columns);
    expect(sheet.getRow(2).getCell(2).value).toBe('12345678901234.56');
    expect(sheet.getRow(2).getCell(3).value).toBe(5);
  });
});
