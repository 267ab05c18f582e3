import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { isoTimestamp, money } from '@csp/service-kit';

export interface CarrierStatus {
  companyCode: string;
  companyName: string;
  receiveMethod: string;
  receiveSchedule: string | null;
  /** An active carrier with an active (or no) profile is expected to deliver. */
  expected: boolean;
  received: boolean;
  fileCount: number;
  lastReceivedAt: string | null;
  rowCount: number;
  pendingCount: number;
  okCount: number;
  errorCount: number;
  openErrorCount: number;
  reportedAmount: string;
  reconStatus: string | null;
  expectedAmount: string | null;
  actualAmount: string | null;
  diffAmount: string | null;
}

export interface ReceiveStatus {
  settleMonth: string;
  expectedCount: number;
  receivedCount: number;
  /** Expected carriers that have not delivered yet. */
  missing: string[];
  carriers: CarrierStatus[];
}

interface Row {
  company_code: string;
  company_name: string;
  receive_method: string | null;
  receive_schedule: string | null;
  expected: boolean;
  file_count: number;
  last_received_at: Date | null;
  row_count: number;
  pending_count: number;
  ok_count: number;
  error_count: number;
  open_error_count: number;
  reported_amount: string;
  recon_status: string | null;
  expected_amount: string | null;
  actual_amount: string | null;
  diff_amount: string | null;
}

/** Per carrier and month: expected vs received, rows, reported amounts, parse counts, reconciliation. */
export async function receiveStatus(
  db: Db,
  settleMonth: string,
  companyCode: string | undefined,
): Promise<ReceiveStatus> {
  const { rows } = await sql<Row>`
    WITH raw AS (
      SELECT company_code, count(*)::int AS row_count,
             count(*) FILTER (WHERE parse_status = 'PENDING')::int AS pending_count,
             count(*) FILTER (WHERE parse_status = 'OK')::int AS ok_count,
             count(*) FILTER (WHERE parse_status = 'ERROR')::int AS error_count,
             coalesce(sum(reported_amount), 0)::text AS reported_amount
      FROM raw_commission_data WHERE settle_month = ${settleMonth} GROUP BY company_code
    ), files AS (
      SELECT company_code, count(*)::int AS file_count, max(received_at) AS last_received_at
      FROM receive_file WHERE settle_month = ${settleMonth} AND status = 'ACTIVE' GROUP BY company_code
    ), errs AS (
      SELECT company_code, count(*)::int AS open_error_count
      FROM parse_error_log WHERE settle_month = ${settleMonth} AND resolve_status = 'OPEN' GROUP BY company_code
    )
    SELECT ic.company_code, ic.company_name,
           cp.receive_method, cp.receive_schedule,
           (ic.is_active AND coalesce(cp.is_active, true)) AS expected,
           coalesce(files.file_count, 0) AS file_count, files.last_received_at,
           coalesce(raw.row_count, 0) AS row_count, coalesce(raw.pending_count, 0) AS pending_count,
           coalesce(raw.ok_count, 0) AS ok_count, coalesce(raw.error_count, 0) AS error_count,
           coalesce(errs.open_error_count, 0) AS open_error_count,
           coalesce(raw.reported_amount, '0') AS reported_amount,
           rc.recon_status, rc.expected_amount::text, rc.actual_amount::text, rc.diff_amount::text
    FROM insurance_company ic
    LEFT JOIN company_profile cp ON cp.company_code = ic.company_code
    LEFT JOIN raw ON raw.company_code = ic.company_code
    LEFT JOIN files ON files.company_code = ic.company_code
    LEFT JOIN errs ON errs.company_code = ic.company_code
    LEFT JOIN reconciliation rc ON rc.company_code = ic.company_code AND rc.settle_month = ${settleMonth}
    WHERE (ic.is_active OR raw.row_count > 0)
      ${companyCode === undefined ? sql`` : sql`AND ic.company_code = ${companyCode}`}
    ORDER BY ic.company_code`.execute(db);
  const carriers = rows.map((r): CarrierStatus => ({
    companyCode: r.company_code,
    companyName: r.company_name,
    receiveMethod: r.receive_method ?? 'MANUAL',
    receiveSchedule: r.receive_schedule,
    expected: r.expected,
    received: r.row_count > 0,
    fileCount: r.file_count,
    lastReceivedAt: isoTimestamp(r.last_received_at),
    rowCount: r.row_count,
    pendingCount: r.pending_count,
    okCount: r.ok_count,
    errorCount: r.error_count,
    openErrorCount: r.open_error_count,
    reportedAmount: money(r.reported_amount)!,
    reconStatus: r.recon_status,
    expectedAmount: money(r.expected_amount),
    actualAmount: money(r.actual_amount),
    diffAmount: money(r.diff_amount),
  }));
  const expected = carriers.filter((c) => c.expected);
  return {
    settleMonth,
    expectedCount: expected.length,
    receivedCount: expected.filter((c) => c.received).length,
    missing: expected.filter((c) => !c.received).map((c) => c.companyCode),
    carriers,
  };
}
