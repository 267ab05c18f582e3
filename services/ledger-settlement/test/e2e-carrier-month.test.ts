import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayClient, startPlatform, TEST_ADMIN_PASSWORD, waitForRun, type Platform } from './e2e-platform.js';

/**
 * Carrier files in, the month run, the ledger rows reconciled (issue 11, "Must show" 1), all through
 * the gateway: three carriers set up with the intake API (profile + field mappings), one UTF-8 CSV, one
 * CP949 CSV with Korean headers and one XLSX uploaded, the month run and polled, then every ledger row's
 * reported figures and MATCHED/DIFF checked against the files and arithmetic done by hand below.
 *
 * Book (SQL, as e2e-lifecycle): agents 4001, 4002 (FC); one LIFE product per carrier.
 * Rates: L001 y1 10 %, y2 5 %; N002 y1 12 %, y3 4 %; F003 y1 8 %, y2 6 %. pct(x, r) = x * r / 100 HALF_UP.
 *   L-1 100000.00 2025-06-03 recruit: pct(100000.00, 10) = 10000.00
 *   L-2  55555.55 2025-06-15 recruit: pct(55555.55, 10) = 5555.555 -> 5555.56
 *   L-3  80000.00 2024-03-10 maintain, 15 whole months to 2025-06-30 -> year 2: pct(80000.00, 5) = 4000.00
 *   L-4  20000.00 2025-06-20 recruit: pct(20000.00, 10) = 2000.00
 *   N-1  70000.00 2025-06-11 recruit: pct(70000.00, 12) = 8400.00
 *   N-2  40000.00 2022-09-01 maintain, 33 whole months -> year 3: pct(40000.00, 4) = 1600.00
 *   F-1  60000.00 2025-06-01 recruit: pct(60000.00, 8) = 4800.00
 *   F-2  33333.33 2024-01-15 maintain, 17 whole months -> year 2: pct(33333.33, 6) = 1999.9998 -> 2000.00
 *
 * Files (reported premium / company amount), reconcile_diff = reported - system:
 *   L001 CSV:  L-1 100000 / 10000.00 MATCHED 0.00; L-2 55555.55 / 5500.00 DIFF 5500.00 - 5555.56 = -55.56;
 *              L-3 80000 / 4000.00 MATCHED 0.00; L-4 'abc' / 2000.00 -> parse error (INVALID_INPUT premium):
 *              its ledger row has no carrier figures and stays PENDING.
 *   N002 CP949: N-1 70000 / 8400.00 MATCHED 0.00; N-2 40000 / 1650.00 DIFF 1650.00 - 1600.00 = 50.00
 *   F003 XLSX: F-1 60000 / 4799.99 DIFF 4799.99 - 4800.00 = -0.01; F-2 33333.3 / 2000.00 MATCHED 0.00
 *              (F-2's reported premium 33333.30 differs from the contract's 33333.33: only the company
 *              amount is reconciled)
 */
const MONTH = '202506';
let p: Platform;
let token: string;

function csv(lines: string[][]): string {
  return lines.map((cells) => cells.join(',')).join('\r\n') + '\r\n';
}

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(
  companyCode: string,
  name: string,
  content: Buffer,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('companyCode', companyCode);
  form.append('settleMonth', MONTH);
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const res = await fetch(`${p.gatewayUrl}/api/receive/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

const { ok } = gatewayClient(() => p, () => token);

/** [company, rows, pending, OK, ERROR, open errors, reported amount, recon status, expected, actual, diff] */
async function receiveStatus() {
  const data = await ok('GET', `/api/receive/status?settleMonth=${MONTH}`);
  return {
    expectedCount: data.expectedCount,
    receivedCount: data.receivedCount,
    missing: data.missing,
    carriers: data.carriers.map((c: any) => [
      c.companyCode,
      c.rowCount,
      c.pendingCount,
      c.okCount,
      c.errorCount,
      c.openErrorCount,
      c.reportedAmount,
      c.reconStatus,
      c.expectedAmount,
      c.actualAmount,
      c.diffAmount,
    ]),
  };
}

beforeAll(async () => {
  p = await startPlatform({ withIntake: true });
  token = await p.login('admin', TEST_ADMIN_PASSWORD);
  await p.pool.query(`
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES (400, NULL, 'HQ', 'HQ', 1), (411, 400, 'Team', 'TM', 2);
    INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status) VALUES (4001, 411, 1, 'Eve FC', 'ACTIVE'), (4002, 411, 1, 'Finn FC', 'ACTIVE');
    INSERT INTO insurance_company (company_id, company_code, company_name, company_type) VALUES
      (41, 'L001', 'Lima Life', 'LIFE'), (42, 'N002', 'November Life', 'LIFE'), (43, 'F003', 'Foxtrot Life', 'LIFE');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES
      (801, 41, 'L-LIFE', 'Lima life', 'LIFE'), (802, 42, 'N-LIFE', 'November life', 'LIFE'), (803, 43, 'F-LIFE', 'Foxtrot life', 'LIFE');
    INSERT INTO commission_rate (product_id, commission_year, rate_pct, effective_from) VALUES
      (801, 1, 10, '2020-01-01'), (801, 2, 5, '2020-01-01'), (802, 1, 12, '2020-01-01'), (802, 3, 4, '2020-01-01'),
      (803, 1, 8, '2020-01-01'), (803, 2, 6, '2020-01-01');
    INSERT INTO payout_rule (grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES
      (1, 'LIFE', 1, 60, '2020-01-01'), (1, 'LIFE', 2, 50, '2020-01-01'), (1, 'LIFE', 3, 40, '2020-01-01');
    INSERT INTO contract (agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date) VALUES
      (4001, 801, 'L-1', 100000.00, 'MONTHLY', 'ACTIVE', '2025-06-03'),
      (4001, 801, 'L-2', 55555.55, 'MONTHLY', 'ACTIVE', '2025-06-15'),
      (4002, 801, 'L-3', 80000.00, 'MONTHLY', 'ACTIVE', '2024-03-10'),
      (4002, 801, 'L-4', 20000.00, 'MONTHLY', 'ACTIVE', '2025-06-20'),
      (4001, 802, 'N-1', 70000.00, 'MONTHLY', 'ACTIVE', '2025-06-11'),
      (4002, 802, 'N-2', 40000.00, 'MONTHLY', 'ACTIVE', '2022-09-01'),
      (4001, 803, 'F-1', 60000.00, 'MONTHLY', 'ACTIVE', '2025-06-01'),
      (4002, 803, 'F-2', 33333.33, 'MONTHLY', 'ACTIVE', '2024-01-15');
  `);

  // carrier profiles and field mappings (both ledgers; each row says its DATA_TYPE) through the gateway
  for (const [companyCode, profile, names] of [
    ['L001', { dataFormat: 'CSV' }, ['POLICY', 'PREM', 'COMM', 'YEAR']],
    ['N002', { dataFormat: 'CSV', fileEncoding: 'CP949' }, ['증권번호', '보험료', '수수료', '차년도']],
    ['F003', { dataFormat: 'EXCEL' }, ['Policy', 'Premium', 'Commission', 'Year']],
  ] as const) {
    await ok('POST', '/api/mapping/profiles', { companyCode, ...profile });
    for (const targetTable of ['recruit_ledger', 'maintain_ledger']) {
      for (const [i, targetField] of [
        'policy_no',
        'premium',
        'company_amount',
        'commission_year',
      ].entries()) {
        await ok('POST', `/api/mapping/${companyCode}/fields`, {
          targetTable,
          targetField,
          sourceField: names[i],
          isRequired: targetField === 'policy_no' || targetField === 'company_amount',
          sortOrder: i + 1,
        });
      }
    }
  }
}, 60_000);

afterAll(async () => {
  await p?.close();
}, 60_000);

describe('carrier files through the gateway, then the month', () => {
  it('stores every record of a UTF-8 CSV, a CP949 CSV and an XLSX as PENDING raw rows', async () => {
    const l001 = await upload(
      'L001',
      'l001-202506.csv',
      Buffer.from(
        csv([
          ['POLICY', 'DATA_TYPE', 'YEAR', 'PREM', 'COMM'],
          ['L-1', 'RECRUIT', '1', '100000', '10000.00'],
          ['L-2', 'RECRUIT', '1', '55555.55', '5500.00'],
          ['L-3', 'MAINTAIN', '2', '80000', '4000.00'],
          ['L-4', 'RECRUIT', '1', 'abc', '2000.00'],
        ]),
      ),
    );
    expect(l001.body).toMatchObject({ success: true, data: { rowCount: 4, fileKind: 'CSV' } });
    const n002 = await upload(
      'N002',
      'n002-202506.csv',
      iconv.encode(
        csv([
          ['증권번호', 'DATA_TYPE', '차년도', '보험료', '수수료'],
          ['N-1', 'RECRUIT', '1', '70000', '8400.00'],
          ['N-2', 'MAINTAIN', '3', '40000', '1650.00'],
        ]),
        'cp949',
      ),
    );
    expect(n002.body).toMatchObject({ success: true, data: { rowCount: 2, fileKind: 'CSV' } });
    const f003 = await upload(
      'F003',
      'f003-202506.xlsx',
      await xlsx([
        ['Policy', 'DATA_TYPE', 'Year', 'Premium', 'Commission'],
        ['F-1', 'RECRUIT', 1, 60000, 4799.99],
        ['F-2', 'MAINTAIN', 2, 33333.3, 2000],
      ]),
    );
    expect(f003.body).toMatchObject({ success: true, data: { rowCount: 2, fileKind: 'XLSX' } });

    // nothing parsed yet; the Korean headers were decoded from CP949 (the raw row keys)
    const status = await receiveStatus();
    expect(status).toEqual({
      expectedCount: 3,
      receivedCount: 3,
      missing: [],
      carriers: [
        ['F003', 2, 2, 0, 0, 0, '0.00', null, null, null, null],
        ['L001', 4, 4, 0, 0, 0, '0.00', null, null, null, null],
        ['N002', 2, 2, 0, 0, 0, '0.00', null, null, null, null],
      ],
    });
    const raw = await ok('GET', `/api/receive/data?settleMonth=${MONTH}&companyCode=N002&pageSize=10`);
    expect(raw.list.map((r: any) => JSON.parse(r.rawContent)['증권번호']).sort()).toEqual(['N-1', 'N-2']);
  });

  it('runs the month to COMPLETED with steps 1-3 doing the carriers’ rows', async () => {
    const runId = await ok('POST', `/api/batch/settlement/run?settleMonth=${MONTH}`);
    const status = await waitForRun(p, token, runId, 45_000);
    expect(status.run.status, JSON.stringify(status)).toBe('COMPLETED');
    const step = (name: string) => {
      const s = status.steps.find((x: any) => x.stepName === name);
      return [s.status, s.totalCount, s.successCount, s.errorCount];
    };
    // receiveData: 3 carriers; transformData: 8 rows, L-4 fails; reconcile: L001 DIFF, N002 and F003 MATCHED
    expect(step('receiveData')).toEqual(['COMPLETED', 3, 3, 0]);
    expect(step('transformData')).toEqual(['COMPLETED', 8, 7, 1]);
    expect(step('reconcile')).toEqual(['COMPLETED', 3, 2, 1]);
    // steps 4/5 compute the system figures and reconcile each row: 5 recruit rows, 3 maintain rows
    expect(step('calcRecruit')).toEqual(['COMPLETED', 5, 5, 0]);
    expect(step('calcMaintain')).toEqual(['COMPLETED', 3, 3, 0]);
  });

  it('gives every ledger row the reported figures of its file and MATCHED/DIFF with the hand-made differences', async () => {
    const rows = async (ledger: 'recruit' | 'maintain') =>
      (await ok('GET', `/api/ledger/${ledger}?settleMonth=${MONTH}&pageSize=100`)).list
        .map((r: any) => [
          r.policyNo,
          r.commissionYear,
          r.premium,
          r.companyAmount,
          r.reportedPremium,
          r.reportedCompanyAmount,
          r.reconcileStatus,
          r.reconcileDiff,
        ])
        .sort((a: any[], b: any[]) => a[0].localeCompare(b[0]));
    // [policy, year, premium, system company amount, reported premium, reported company amount, status, diff]
    expect(await rows('recruit')).toEqual([
      ['F-1', 1, '60000.00', '4800.00', '60000.00', '4799.99', 'DIFF', '-0.01'],
      ['L-1', 1, '100000.00', '10000.00', '100000.00', '10000.00', 'MATCHED', '0.00'],
      ['L-2', 1, '55555.55', '5555.56', '55555.55', '5500.00', 'DIFF', '-55.56'],
      ['L-4', 1, '20000.00', '2000.00', null, null, 'PENDING', null],
      ['N-1', 1, '70000.00', '8400.00', '70000.00', '8400.00', 'MATCHED', '0.00'],
    ]);
    expect(await rows('maintain')).toEqual([
      ['F-2', 2, '33333.33', '2000.00', '33333.30', '2000.00', 'MATCHED', '0.00'],
      ['L-3', 2, '80000.00', '4000.00', '80000.00', '4000.00', 'MATCHED', '0.00'],
      ['N-2', 3, '40000.00', '1600.00', '40000.00', '1650.00', 'DIFF', '50.00'],
    ]);
  });

  it('counts the month per carrier and names the crafted bad row’s parse error', async () => {
    // L001: expected 10000.00 + 5500.00 + 4000.00 + 2000.00 (L-4's amount was readable) = 21500.00,
    //       actual (the 3 rows on a ledger row) 10000.00 + 5500.00 + 4000.00 = 19500.00, diff 2000.00
    // N002: 8400.00 + 1650.00 = 10050.00 on both sides; F003: 4799.99 + 2000.00 = 6799.99 on both sides
    expect(await receiveStatus()).toEqual({
      expectedCount: 3,
      receivedCount: 3,
      missing: [],
      carriers: [
        ['F003', 2, 0, 2, 0, 0, '6799.99', 'MATCHED', '6799.99', '6799.99', '0.00'],
        ['L001', 4, 0, 3, 1, 1, '21500.00', 'DIFF', '21500.00', '19500.00', '2000.00'],
        ['N002', 2, 0, 2, 0, 0, '10050.00', 'MATCHED', '10050.00', '10050.00', '0.00'],
      ],
    });
    const errors = await ok('GET', `/api/receive/errors?settleMonth=${MONTH}`);
    expect(
      errors.list.map((e: any) => [
        e.companyCode,
        e.errorType,
        e.errorField,
        e.errorValue,
        e.fileName,
        e.rowNumber,
        e.parseStatus,
        e.resolveStatus,
      ]),
    ).toEqual([['L001', 'INVALID_INPUT', 'premium', 'abc', 'l001-202506.csv', 5, 'ERROR', 'OPEN']]);
  });
});
