import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { writeXlsx, type XlsxCell } from './carrier-xlsx.js';

/**
 * Demo carrier files: what each insurance company of the demo book sends for a settle month, one
 * file per company with its recruit and maintain records (a DATA_TYPE column per row), in the
 * layout of the company's intake profile and field mappings (seeded here when the company has
 * none): the first company sends XLSX, the second a CP949 CSV with Korean headers, the others UTF-8
 * CSV. The figures are the system's own for the month (its recruit/maintain ledger rows, so the
 * month must have been calculated once) except a known few rows per company whose reported
 * company amount is raised by a listed delta; a manifest next to the files lists them. Uploaded
 * through POST /api/receive/upload (no dataType) and processed (steps 1-3), every record maps;
 * the next run's calcRecruit/calcMaintain then mark exactly the listed rows DIFF.
 */

export type CarrierLayoutName = 'XLSX' | 'CSV_CP949' | 'CSV_UTF8';

interface CarrierLayout {
  name: CarrierLayoutName;
  dataFormat: 'EXCEL' | 'CSV';
  encoding: 'UTF-8' | 'CP949';
  sheetName: string | null;
  extension: 'xlsx' | 'csv';
  /** Header texts of the mapped columns and of the per-row data type. */
  policy: string;
  year: string;
  premium: string;
  commission: string;
  /** An unmapped column (stored in raw_content only): the carrier's word for the data type. */
  kind?: { header: string; recruit: string; maintain: string };
}

const DATA_TYPE = 'DATA_TYPE';

const LAYOUTS: Record<CarrierLayoutName, CarrierLayout> = {
  XLSX: {
    name: 'XLSX',
    dataFormat: 'EXCEL',
    encoding: 'UTF-8',
    sheetName: 'Commission',
    extension: 'xlsx',
    policy: 'Policy No',
    year: 'Year',
    premium: 'Premium',
    commission: 'Commission',
  },
  CSV_CP949: {
    name: 'CSV_CP949',
    dataFormat: 'CSV',
    encoding: 'CP949',
    sheetName: null,
    extension: 'csv',
    policy: '증권번호',
    year: '차년도',
    premium: '보험료',
    commission: '수수료',
    kind: { header: '수수료구분', recruit: '모집', maintain: '유지' },
  },
  CSV_UTF8: {
    name: 'CSV_UTF8',
    dataFormat: 'CSV',
    encoding: 'UTF-8',
    sheetName: null,
    extension: 'csv',
    policy: 'POLICY_NO',
    year: 'COMM_YEAR',
    premium: 'PREMIUM',
    commission: 'COMMISSION',
  },
};

/**
 * CP949 bytes of the Korean words the CP949 layout uses (the demo package has no character-set
 * library; everything else in the file is ASCII, which CP949 leaves as is).
 */
const CP949_WORDS: Readonly<Record<string, string>> = {
  증권번호: 'c1f5b1c7b9f8c8a3',
  차년도: 'c2f7b3e2b5b5',
  보험료: 'bab8c7e8b7e1',
  수수료: 'bcf6bcf6b7e1',
  수수료구분: 'bcf6bcf6b7e1b1b8bad0',
  모집: 'b8f0c1fd',
  유지: 'c0afc1f6',
};

function encodeCp949(text: string): Buffer {
  if (/^[\x00-\x7f]*$/.test(text)) return Buffer.from(text, 'latin1');
  const hex = CP949_WORDS[text];
  if (!hex) throw new Error(`no CP949 bytes for '${text}'`);
  return Buffer.from(hex, 'hex');
}

/** Reported = system + delta for the known few rows (deltas in turn). */
const DIFF_DELTAS = ['1000.00', '0.01', '123.45', '50.00', '7.70'] as const;

export interface CarrierDiff {
  policyNo: string;
  dataType: 'RECRUIT' | 'MAINTAIN';
  commissionYear: number;
  systemAmount: string;
  reportedAmount: string;
  delta: string;
}

export interface CarrierFileInfo {
  companyCode: string;
  layout: CarrierLayoutName;
  fileName: string;
  path: string;
  rows: number;
  recruitRows: number;
  maintainRows: number;
  reportedTotal: string;
  diffs: CarrierDiff[];
}

export interface CarrierFilesOptions {
  outDir: string;
  /** 'YYYYMM'; default the latest month whose settlement run completed. */
  settleMonth?: string;
  /** Rows per company whose reported amount differs from the system's (default 3). */
  diffsPerCompany?: number;
  log?: (message: string) => void;
}

export interface CarrierFilesResult {
  settleMonth: string;
  profilesSeeded: number;
  files: CarrierFileInfo[];
  manifestPath: string;
}

// ---- money as cents (never a JS number) -------------------------------------------------------------------
const cents = (amount: string): bigint => {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) throw new Error(`not a money amount: ${amount}`);
  const value = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] === '-' ? -value : value;
};
const money = (value: bigint): string => {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

// ---- profiles and mappings ------------------------------------------------------------------------------
interface Company {
  code: string;
  layout: CarrierLayout;
}

/** The demo layout of the i-th carrier in company-code order: the first XLSX, the second CP949 CSV, the rest UTF-8 CSV. */
const demoLayoutAt = (i: number): CarrierLayout =>
  i === 0 ? LAYOUTS.XLSX : i === 1 ? LAYOUTS.CSV_CP949 : LAYOUTS.CSV_UTF8;

function layoutOfProfile(dataFormat: string, encoding: string): CarrierLayout {
  if (dataFormat === 'EXCEL') return LAYOUTS.XLSX;
  return /^(CP949|MS949|EUC-KR|EUCKR)$/i.test(encoding) ? LAYOUTS.CSV_CP949 : LAYOUTS.CSV_UTF8;
}

/**
 * The carriers with ledger rows in the month, each with its layout: from its profile, or seeded
 * (profile + field mappings of both ledgers) when it has neither. A company whose mappings read
 * other columns than its layout's is refused: its files would not load.
 */
async function carriersOf(
  pool: pg.Pool,
  settleMonth: string,
): Promise<{ companies: Company[]; seeded: number }> {
  const { rows } = await pool.query<{
    company_code: string;
    data_format: string | null;
    file_encoding: string | null;
  }>(
    `SELECT ic.company_code, cp.data_format, cp.file_encoding
       FROM insurance_company ic
       LEFT JOIN company_profile cp ON cp.company_code = ic.company_code
      WHERE ic.is_active
        AND (EXISTS (SELECT 1 FROM recruit_ledger l WHERE l.company_code = ic.company_code AND l.settle_month = $1)
          OR EXISTS (SELECT 1 FROM maintain_ledger l WHERE l.company_code = ic.company_code AND l.settle_month = $1))
      ORDER BY ic.company_code`,
    [settleMonth],
  );
  const companies: Company[] = [];
  let seeded = 0;
  for (const [i, r] of rows.entries()) {
    let layout: CarrierLayout;
    if (r.data_format === null) {
      layout = demoLayoutAt(i);
      if (await seedProfile(pool, r.company_code, layout)) seeded++;
    } else {
      layout = layoutOfProfile(r.data_format, r.file_encoding ?? 'UTF-8');
    }
    const mapped = await pool.query<{ source_field: string }>(
      'SELECT DISTINCT source_field FROM company_field_mapping WHERE company_code = $1 AND is_active',
      [r.company_code],
    );
    const headers = new Set([layout.policy, layout.year, layout.premium, layout.commission, DATA_TYPE]);
    const foreign = mapped.rows.map((m) => m.source_field).filter((f) => !headers.has(f));
    if (foreign.length) {
      throw new Error(
        `the field mapping of ${r.company_code} reads ${foreign.join(', ')}, which the demo ${layout.name} layout does not have`,
      );
    }
    companies.push({ code: r.company_code, layout });
  }
  return { companies, seeded };
}

/**
 * The demo book's carriers, in company-code order, get the profile and field mappings of their demo
 * layout when they have none (the first XLSX, the second CP949 CSV, the rest UTF-8 CSV), so their
 * carrier files process. Returns how many were seeded.
 */
export async function seedCarrierProfiles(pool: pg.Pool, companyCodes: readonly string[]): Promise<number> {
  let seeded = 0;
  for (const [i, code] of [...companyCodes].sort().entries()) {
    if (await seedProfile(pool, code, demoLayoutAt(i))) seeded++;
  }
  return seeded;
}

/** Profile and field mappings (both ledgers, version 1 from 2000-01-01) of a company that has none. */
async function seedProfile(pool: pg.Pool, companyCode: string, layout: CarrierLayout): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const inserted = await client.query(
      `INSERT INTO company_profile (company_code, data_format, file_encoding, delimiter, header_row, data_start_row,
                                    sheet_name, receive_method, receive_schedule)
       VALUES ($1, $2, $3, ',', 1, 2, $4, 'MANUAL', 'monthly, by the 5th')
       ON CONFLICT (company_code) DO NOTHING`,
      [companyCode, layout.dataFormat, layout.encoding, layout.sheetName],
    );
    const mapped = await client.query('SELECT 1 FROM company_field_mapping WHERE company_code = $1 LIMIT 1', [
      companyCode,
    ]);
    if (mapped.rowCount === 0) {
      const fields: Array<[target: string, source: string, rule: string | null, required: boolean]> = [
        ['policy_no', layout.policy, 'TRIM', true],
        ['commission_year', layout.year, null, false],
        ['premium', layout.premium, null, false],
        ['company_amount', layout.commission, null, true],
      ];
      for (const table of ['recruit_ledger', 'maintain_ledger']) {
        for (const [order, [target, source, rule, required]] of fields.entries()) {
          await client.query(
            `INSERT INTO company_field_mapping (company_code, source_field, target_table, target_field, data_type,
                                                transform_rule, is_required, sort_order, version, effective_from, is_active)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, '2000-01-01', true)`,
            [
              companyCode,
              source,
              table,
              target,
              target === 'policy_no' ? 'STRING' : 'NUMBER',
              rule,
              required,
              order + 1,
            ],
          );
        }
      }
    }
    await client.query('COMMIT');
    return (inserted.rowCount ?? 0) > 0 || mapped.rowCount === 0;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

// ---- records -------------------------------------------------------------------------------------------
interface LedgerRecord {
  policyNo: string;
  dataType: 'RECRUIT' | 'MAINTAIN';
  commissionYear: number;
  premium: string;
  companyAmount: string;
}

const PAGE = 20_000;

/** The month's ledger rows of a company (recruit, then maintain, each by ledger id), paged by key. */
async function* ledgerRecords(
  pool: pg.Pool,
  companyCode: string,
  settleMonth: string,
): AsyncGenerator<LedgerRecord> {
  for (const [table, dataType] of [
    ['recruit_ledger', 'RECRUIT'],
    ['maintain_ledger', 'MAINTAIN'],
  ] as const) {
    let after = 0;
    for (;;) {
      const { rows } = await pool.query<{
        ledger_id: string | number;
        policy_no: string;
        commission_year: number;
        premium: string;
        company_amount: string;
      }>(
        `SELECT ledger_id, policy_no, commission_year, premium::text AS premium, company_amount::text AS company_amount
           FROM ${table}
          WHERE company_code = $1 AND settle_month = $2 AND ledger_id > $3
          ORDER BY ledger_id LIMIT ${PAGE}`,
        [companyCode, settleMonth, after],
      );
      for (const r of rows) {
        yield {
          policyNo: r.policy_no,
          dataType,
          commissionYear: r.commission_year,
          premium: r.premium,
          companyAmount: r.company_amount,
        };
      }
      if (rows.length < PAGE) break;
      after = Number(rows[rows.length - 1]!.ledger_id);
    }
  }
}

async function countOf(pool: pg.Pool, companyCode: string, settleMonth: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM recruit_ledger WHERE company_code = $1 AND settle_month = $2)
          + (SELECT count(*) FROM maintain_ledger WHERE company_code = $1 AND settle_month = $2) AS n`,
    [companyCode, settleMonth],
  );
  return Number(rows[0]!.n);
}

/** The records as the carrier reports them: the known few get their delta. */
async function* reported(
  records: AsyncGenerator<LedgerRecord>,
  diffAt: ReadonlySet<number>,
  diffs: CarrierDiff[],
  totals: { rows: number; recruit: number; maintain: number; amount: bigint },
): AsyncGenerator<LedgerRecord> {
  let i = 0;
  for await (const r of records) {
    let amount = r.companyAmount;
    if (diffAt.has(i)) {
      const delta = DIFF_DELTAS[diffs.length % DIFF_DELTAS.length]!;
      amount = money(cents(r.companyAmount) + cents(delta));
      diffs.push({
        policyNo: r.policyNo,
        dataType: r.dataType,
        commissionYear: r.commissionYear,
        systemAmount: money(cents(r.companyAmount)),
        reportedAmount: amount,
        delta,
      });
    }
    i++;
    totals.rows++;
    if (r.dataType === 'RECRUIT') totals.recruit++;
    else totals.maintain++;
    totals.amount += cents(amount);
    yield { ...r, companyAmount: amount };
  }
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function writeCsv(
  path: string,
  layout: CarrierLayout,
  records: AsyncIterable<LedgerRecord>,
): Promise<void> {
  const out = createWriteStream(path);
  const encode = layout.encoding === 'CP949' ? encodeCp949 : (text: string) => Buffer.from(text, 'utf8');
  const header = [layout.policy, DATA_TYPE, layout.year, layout.premium, layout.commission];
  if (layout.kind) header.push(layout.kind.header);
  const comma = Buffer.from(',');
  const crlf = Buffer.from('\r\n');
  const line = (cells: string[]) =>
    Buffer.concat([
      ...cells.flatMap((c, i) => (i ? [comma, encode(csvCell(c))] : [encode(csvCell(c))])),
      crlf,
    ]);
  let pending: Buffer[] = [line(header)];
  let size = 0;
  for await (const r of records) {
    const cells = [r.policyNo, r.dataType, String(r.commissionYear), r.premium, r.companyAmount];
    if (layout.kind) cells.push(r.dataType === 'RECRUIT' ? layout.kind.recruit : layout.kind.maintain);
    const bytes = line(cells);
    pending.push(bytes);
    size += bytes.length;
    if (size > 256 * 1024) {
      if (!out.write(Buffer.concat(pending))) await once(out, 'drain');
      pending = [];
      size = 0;
    }
  }
  out.end(Buffer.concat(pending));
  await once(out, 'finish');
}

/** The latest month a settlement run completed (its ledger rows hold the system's figures). */
async function latestCalculatedMonth(pool: pg.Pool): Promise<string | undefined> {
  const { rows } = await pool.query<{ m: string | null }>(
    `SELECT max(settle_month) AS m FROM batch_job_log
      WHERE job_name = 'SETTLEMENT' AND step_name IS NULL AND status = 'COMPLETED'`,
  );
  return rows[0]?.m ?? undefined;
}

/** Writes one carrier file per company for the month, and a manifest (`carrier-files-<month>.json`). */
export async function writeCarrierFiles(
  pool: pg.Pool,
  options: CarrierFilesOptions,
): Promise<CarrierFilesResult> {
  const log = options.log ?? (() => {});
  const perCompany = options.diffsPerCompany ?? 3;
  if (!Number.isInteger(perCompany) || perCompany < 0)
    throw new RangeError('diffsPerCompany must be an integer >= 0');
  const settleMonth = options.settleMonth ?? (await latestCalculatedMonth(pool));
  if (!settleMonth) {
    throw new Error(
      'no settlement run has completed yet: run the settlement of a month first (the carrier files report its figures), or name a month with ledger rows',
    );
  }
  if (!/^\d{4}(0[1-9]|1[0-2])$/.test(settleMonth))
    throw new RangeError(`settle month must be YYYYMM, got '${settleMonth}'`);
  const { companies, seeded } = await carriersOf(pool, settleMonth);
  if (companies.length === 0) {
    throw new Error(`no ledger rows in ${settleMonth}: run the settlement of ${settleMonth} first`);
  }
  await mkdir(options.outDir, { recursive: true });
  const files: CarrierFileInfo[] = [];
  for (const company of companies) {
    const { layout } = company;
    const total = await countOf(pool, company.code, settleMonth);
    // a known few: never more than half of a carrier's rows
    const k = Math.min(perCompany, Math.floor(total / 2));
    const diffAt = new Set(Array.from({ length: k }, (_, j) => Math.floor(((j + 1) * total) / (k + 1))));
    const diffs: CarrierDiff[] = [];
    const totals = { rows: 0, recruit: 0, maintain: 0, amount: 0n };
    const fileName = `${company.code}-${settleMonth}.${layout.extension}`;
    const path = join(options.outDir, fileName);
    const records = reported(ledgerRecords(pool, company.code, settleMonth), diffAt, diffs, totals);
    if (layout.name === 'XLSX') {
      const header = [layout.policy, DATA_TYPE, layout.year, layout.premium, layout.commission];
      await writeXlsx(
        path,
        layout.sheetName ?? 'Sheet1',
        header,
        (async function* () {
          for await (const r of records) {
            yield [
              { text: r.policyNo },
              { text: r.dataType },
              { number: String(r.commissionYear) },
              { number: r.premium },
              { number: r.companyAmount },
            ] satisfies XlsxCell[];
          }
        })(),
      );
    } else {
      await writeCsv(path, layout, records);
    }
    files.push({
      companyCode: company.code,
      layout: layout.name,
      fileName,
      path,
      rows: totals.rows,
      recruitRows: totals.recruit,
      maintainRows: totals.maintain,
      reportedTotal: money(totals.amount),
      diffs,
    });
    log(
      `${fileName}: ${totals.rows} records (${layout.name}), ${diffs.length} differing from the system's amounts`,
    );
  }
  const manifestPath = join(options.outDir, `carrier-files-${settleMonth}.json`);
  await writeFile(manifestPath, `${JSON.stringify({ settleMonth, files }, null, 2)}\n`);
  return { settleMonth, profilesSeeded: seeded, files, manifestPath };
}

/** `pnpm demo-data -- --carrier-files DIR [--carrier-month YYYYMM] [--carrier-diffs N]`: returns the exit code. */
export async function runCarrierFilesCommand(
  pool: pg.Pool,
  options: { outDir: string; settleMonth: string | undefined; diffs: string | undefined },
): Promise<number> {
  const diffs = options.diffs === undefined ? undefined : Number(options.diffs);
  const result = await writeCarrierFiles(pool, {
    outDir: options.outDir,
    ...(options.settleMonth ? { settleMonth: options.settleMonth } : {}),
    ...(diffs === undefined ? {} : { diffsPerCompany: diffs }),
    log: (message) => console.log(`[demo-data] ${message}`),
  });
  console.log(
    `[demo-data] ${result.files.length} carrier files for ${result.settleMonth} in ${options.outDir} ` +
      `(${result.profilesSeeded} intake profiles seeded); upload each through POST /api/receive/upload ` +
      `(companyCode, settleMonth ${result.settleMonth}, no dataType), then POST /api/receive/process; ` +
      `the rows that differ are listed in ${result.manifestPath}`,
  );
  return 0;
}
