import type { Trx } from '@csp/batch';
import { sql } from 'kysely';
import type { LedgerTable, ParseError } from '../transform/record-mapper.js';
import { intakeDb, type IntakeDb } from '../db.js';

export interface PendingRawRow {
  raw_id: number;
  company_code: string;
  data_type: string;
  raw_content: string;
}

/** PENDING raw rows of the month (and carrier) with raw_id in [from, to], oldest first. */
export async function loadPendingRawRows(
  trx: Trx,
  settleMonth: string,
  companyCode: string | undefined,
  range: { from: number; to: number },
): Promise<PendingRawRow[]> {
  return intakeDb(trx)
    .selectFrom('raw_commission_data')
    .select(['raw_id', 'company_code', 'data_type', 'raw_content'])
    .where('settle_month', '=', settleMonth)
    .where('parse_status', '=', 'PENDING')
    .where('raw_id', '>=', range.from)
    .where('raw_id', '<=', range.to)
    .$if(companyCode !== undefined, (qb) => qb.where('company_code', '=', companyCode!))
    .orderBy('raw_id')
    .execute();
}

/**
 * Chunk boundaries over the PENDING rows of the month: every `size`-th raw_id starts a chunk, so each
 * chunk holds `size` rows however sparse the ids are; the last chunk ends at the highest id.
 */
export async function pendingRanges(
  db: IntakeDb,
  settleMonth: string,
  companyCode: string | undefined,
  size: number,
): Promise<{ from: number; to: number }[]> {
  const { rows } = await sql<{ raw_id: number; max_id: number }>`
    SELECT raw_id, max_id FROM (
      SELECT raw_id, row_number() OVER (ORDER BY raw_id) AS rn, max(raw_id) OVER () AS max_id
      FROM raw_commission_data
      WHERE settle_month = ${settleMonth} AND parse_status = 'PENDING'
        ${companyCode === undefined ? sql`` : sql`AND company_code = ${companyCode}`}
    ) r
    WHERE (rn - 1) % ${size} = 0
    ORDER BY raw_id`.execute(db);
  return rows.map((row, i) => ({
    from: row.raw_id,
    to: i + 1 < rows.length ? rows[i + 1]!.raw_id - 1 : row.max_id,
  }));
}

export interface RawOutcome {
  rawId: number;
  status: 'OK' | 'ERROR';
  ledgerId: number | null;
  table: LedgerTable | null;
  reportedAmount: string | null;
}

/** Sets parse_status, mapping and parsed_at of the processed rows (one statement). */
export async function writeRawOutcomes(trx: Trx, outcomes: readonly RawOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await sql`
    UPDATE raw_commission_data r SET
      parse_status = v.status,
      mapped_ledger_id = v.ledger_id,
      mapped_table = v.tbl,
      reported_amount = v.amount,
      parsed_at = now(),
      updated_at = now()
    FROM json_to_recordset(${JSON.stringify(
      outcomes.map((o) => ({ raw_id: o.rawId, status: o.status, ledger_id: o.ledgerId, tbl: o.table, amount: o.reportedAmount })),
    )}::json) AS v (raw_id bigint, status text, ledger_id bigint, tbl text, amount numeric)
    WHERE r.raw_id = v.raw_id`.execute(trx);
}

export interface ErrorRow {
  rawId: number;
  companyCode: string;
  error: ParseError;
}

/**
 * Replaces the OPEN parse errors of the processed raw rows with the new ones: a row taken again
 * (reprocessed after a fix) never keeps a stale OPEN error, and RESOLVED/IGNORED history stays.
 */
export async function replaceOpenErrors(
  trx: Trx,
  settleMonth: string,
  processedRawIds: readonly number[],
  errors: readonly ErrorRow[],
): Promise<void> {
  if (processedRawIds.length > 0) {
    await sql`
      DELETE FROM parse_error_log
      WHERE raw_id = ANY(${[...processedRawIds]}::bigint[]) AND resolve_status = 'OPEN'`.execute(trx);
  }
  if (errors.length === 0) return;
  await sql`
    INSERT INTO parse_error_log (raw_id, company_code, settle_month, error_type, error_field, error_value, error_message)
    SELECT v.raw_id, v.company_code, ${settleMonth}, v.error_type, v.error_field, v.error_value, v.message
    FROM unnest(
      ${errors.map((e) => e.rawId)}::bigint[], ${errors.map((e) => e.companyCode)}::text[],
      ${errors.map((e) => e.error.errorType)}::text[], ${errors.map((e) => e.error.errorField)}::text[],
      ${errors.map((e) => e.error.errorValue)}::text[], ${errors.map((e) => e.error.message.slice(0, 1000))}::text[]
    ) AS v (raw_id, company_code, error_type, error_field, error_value, message)`.execute(trx);
}
