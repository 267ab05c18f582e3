import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFieldCipher, defineResource, f, money } from '../src/index.js';
import { createDb, createPool } from '@csp/db';

const cipher = createFieldCipher(randomBytes(16).toString('hex'));

const ledger = defineResource({
  name: 'ExportLedger',
  path: '/api/export-ledger',
  table: 'demo_export_ledger',
  alias: 'l',
  menu: 'DEMO',
  fields: {
    ledgerId: f.id().label('Ledger ID'),
    policyNo: f.text().label('Policy no').export({ width: 18 }),
    agentName: f.text().masked('name').label('Agent'),
    residentNo: f.text().encrypted().masked('residentNo').label('Resident no'),
    premium: f.money().label('Premium'),
    rate: f.rate().label('Rate'),
    ratio: f.rate().masked('name').export(false),
    paidOn: f.date().label('Paid on'),
    meta: f.json().label('Meta'),
    settledAt: f.timestamp().label('Settled at'),
    payMethod: f.text().export(false),
    createdAt: f.createdAt().export(false),
    createdBy: f.createdBy().hidden(),
  },
});

/** A row as pg returns it (numeric as text, DATE as text, timestamps as Date). */
const raw = (i: number) => ({
  ledgerId: i,
  policyNo: `P${i}`,
  agentName: 'Kim Minsu',
  residentNo: cipher.encrypt('900101-1234567'),
  premium: i % 2 ? '1234.5' : '-0.005',
  rate: '3.30000',
  ratio: '1.5',
  paidOn: i % 3 ? '2025-01-31' : null,
  meta: { a: i },
  settledAt: i % 2 ? new Date('2025-02-01T09:30:00Z') : null,
  payMethod: 'MONTHLY',
  createdAt: new Date('2025-01-31T00:00:00Z'),
  createdBy: 7,
});

const cells = (row: Record<string, unknown>) => ledger.exportColumns.map((c) => (c.value ? c.value(row) : row[c.key]));
/** What the export wrote before it read rows directly: the response's values, json as its text. */
const responseCells = (row: Record<string, unknown>) => {
  const resp: Record<string, unknown> = ledger.toResp(row, cipher);
  return ledger.exportColumns.map((c) => (c.key === 'meta' ? JSON.stringify(resp[c.key]) : resp[c.key]));
};

describe('resource export rows (narrow export)', () => {
  it('give every export column the value of the response field (decrypted, masked, formatted) read from the selected row', () => {
    for (let i = 1; i <= 6; i++) {
      expect(cells(ledger.exportRow(raw(i), cipher))).toEqual(responseCells(raw(i)));
    }
    expect(cells(ledger.exportRow(raw(1), cipher))).toEqual([
      1,
      'P1',
      'K*******u',
      '900101-*******',
      '1234.50',
      '3.3',
      '2025-01-31',
      '{"a":1}',
      '2025-02-01T09:30:00.000Z',
    ]);
    expect(cells(ledger.exportRow(raw(2), cipher)).slice(4, 5)).toEqual(['-0.01']);
  });

  it('read array rows (pg rowMode array, select order) into the same cells as the object rows, encrypted values decrypted in place', () => {
    const array = ledger.exportArray!;
    const keys = ledger.exportColumns.map((c) => c.key);
    expect(array.columns.map((c) => [c.key, c.header, c.width, c.numeric])).toEqual(
      ledger.exportColumns.map((c) => [c.key, c.header, c.width, c.numeric]),
    );
    for (let i = 1; i <= 6; i++) {
      const values = keys.map((k) => (raw(i) as Record<string, unknown>)[k]);
      const row = array.row(values, cipher);
      expect(array.columns.map((c) => c.value!(row))).toEqual(cells(ledger.exportRow(raw(i), cipher)));
    }
  });

  it('select only the exported fields (no timestamps or response-only fields read for a 1,000,000-row export)', async () => {
    const pool = createPool({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres', max: 1 });
    try {
      const compiled = ledger.exportSelect(createDb(pool)).compile();
      const selected = [...compiled.sql.matchAll(/ as "(\w+)"/g)].map((m) => m[1]).filter((name) => name !== 'l');
      expect(selected).toEqual(['ledgerId', 'policyNo', 'agentName', 'residentNo', 'premium', 'rate', 'paidOn', 'meta', 'settledAt']);
      const full = ledger.select(createDb(pool)).compile().sql;
      expect(full).toContain('"createdAt"');
    } finally {
      await pool.end();
    }
  });

  it('read the whole response when mapResponse may use any field', () => {
    const mapped = defineResource({
      name: 'Mapped',
      path: '/api/mapped',
      table: 'demo_mapped',
      menu: 'DEMO',
      fields: { id: f.id(), amount: f.money(), note: f.text().export(false) },
      mapResponse: (resp) => ({ ...resp, amount: resp.note === 'void' ? null : resp.amount }),
    });
    expect(mapped.exportRow).toBe(mapped.toResp);
    expect(mapped.exportArray).toBeUndefined();
    expect(mapped.exportSelect).toBe(mapped.select);
  });
});

describe('money() of text pg already gives with two places', () => {
  it('returns the same text as the rounding path for canonical, padded, signed and negative-zero inputs', () => {
    const inputs = ['0.00', '-0.00', '00.50', '-12.30', '+1.00', ' 1.00', '1234567890123.99', '-0.01', '10.00', '1.5', '.50', '5.', '1e2'];
    const viaRounding = (v: string) => (/^\s*[+-]?\d+\.\d\d\s*$/.test(v) ? money(`${v.trim()}0`) : money(v));
    for (const v of inputs.filter((x) => /^\s*[+-]?\d+\.\d\d\s*$/.test(x) || /^[+-]?\d+(\.\d+)?$/.test(x))) {
      expect(money(v)).toBe(viaRounding(v));
    }
    expect(['0.00', '-0.00', '00.50', '-12.30', '+1.00', ' 1.00'].map((v) => money(v))).toEqual(['0.00', '0.00', '0.50', '-12.30', '1.00', '1.00']);
    expect(() => money('.50')).toThrow();
  });
});
