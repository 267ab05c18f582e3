import type { Trx } from '@csp/batch';
import { CopyWriter, type PgClient } from '@csp/db';
import { sql } from 'kysely';
import { chunkSizes } from './chunk-sizes.js';
import type { ExistingLedgerRow, LedgerRow } from './ledger-row.js';

export type LedgerTable = 'recruit_ledger' | 'maintain_ledger';

/** An existing row and the carrier it was written for (a company run only revisits its own carrier's rows). */
export type ExistingRangeRow = ExistingLedgerRow & { company_code: string | null };

/**
 * The month's existing rows of a contract-id range, of every carrier: to keep insurer data, to find stale rows
 * and to know which computed rows are new (copied) and which replace a row (upserted).
 */
export async function loadExistingLedgerRows(
  trx: Trx,
  table: LedgerTable,
  settleMonth: string,
  range: { from: number; to: number },
): Promise<ExistingRangeRow[]> {
  const { rows } = await sql<ExistingRangeRow>`
    SELECT contract_id, commission_year, agent_id, status, raw_id, reported_company_amount, company_code
    FROM ${sql.table(table)}
    WHERE settle_month = ${settleMonth}
      AND contract_id BETWEEN ${range.from} AND ${range.to}`.execute(trx);
  return rows;
}

const COPY_COLUMNS = [
  'contract_id',
  'agent_id',
  'policy_no',
  'company_code',
  'product_code',
  'insurance_type',
  'commission_year',
  'premium',
  'pay_method',
  'company_rate',
  'company_amount',
  'payout_rate',
  'agent_amount',
  'tax_amount',
  'reconcile_status',
  'reconcile_diff',
  'calc_basis',
  'settle_month',
  'run_id',
] as const;

/**
 * New ledger rows of a chunk streamed into the table with COPY while the chunk is still being computed
 * (PERFORMANCE-NOTES: COPY ~2.5x a parameterised insert): PostgreSQL stores one batch while the worker
 * computes the next. Opened on the first row; nothing else may use the client until `end()`.
 */
export class LedgerCopy {
  private writer: CopyWriter | undefined;

  constructor(
    private readonly client: PgClient,
    private readonly table: LedgerTable,
    private readonly settleMonth: string,
    private readonly runId: number,
  ) {}

  /** Buffers a row; sends a full batch and yields to the event loop. */
  async add(row: LedgerRow): Promise<void> {
    this.writer ??= new CopyWriter(this.client, this.table, COPY_COLUMNS, chunkSizes().writeBatch);
    const full = this.writer.write([
      row.contractId,
      row.agentId,
      row.policyNo,
      row.companyCode,
      row.productCode,
      row.insuranceType,
      row.commissionYear,
      row.premium,
      row.payMethod,
      row.companyRate,
      row.companyAmount,
      row.payoutRate,
      row.agentAmount,
      row.taxAmount,
      row.reconcileStatus,
      row.reconcileDiff,
      row.calcBasis,
      this.settleMonth,
      this.runId,
    ]);
    if (full) await this.writer.flush();
  }

  /** Completes the COPY; the number of rows stored. */
  end(): Promise<number> {
    return this.writer ? this.writer.end() : Promise.resolve(0);
  }
}

/**
 * Rows replacing existing ones (a re-run of the month) upserted a batch at a time while the chunk is still being
 * computed: each batch's statement is sent, then the caller yields, so PostgreSQL runs it while the worker
 * computes the next batch (the client queues the statements; they run after a COPY in progress has ended).
 */
export class LedgerUpserts {
  private batch: LedgerRow[] = [];
  private readonly sent: Promise<number>[] = [];
  private queued = 0;

  constructor(
    private readonly trx: Trx,
    private readonly table: LedgerTable,
    private readonly settleMonth: string,
    private readonly runId: number,
    private readonly batchRows = chunkSizes().writeBatch,
  ) {}

  /** Buffers a row; sends a full batch and yields to the event loop. */
  async add(row: LedgerRow): Promise<void> {
    this.batch.push(row);
    if (this.batch.length < this.batchRows) return;
    this.send();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Sends the rest and waits for every statement: rows queued and rows written (CALCULATED ones). */
  async end(): Promise<{ queued: number; written: number }> {
    if (this.batch.length > 0) this.send();
    const written = await Promise.all(this.sent);
    return { queued: this.queued, written: written.reduce((a, b) => a + b, 0) };
  }

  private send(): void {
    const rows = this.batch;
    this.batch = [];
    this.queued += rows.length;
    const statement = upsertLedgerRows(this.trx, this.table, this.settleMonth, this.runId, rows);
    // Failures surface from end(); until then the transaction is already doomed.
    statement.catch(() => undefined);
    this.sent.push(statement);
  }
}

/**
 * Multi-row upsert of rows that replace existing ones (one statement per chunk). The rows travel as one JSON parameter read by json_to_recordset:
 * JSON.stringify is native, while pg's array-literal escaping of a chunk's 17 column arrays cost ~20x more
 * JS time (mostly the calc_basis texts). Rows that are no longer CALCULATED are not touched; returns how many
 * rows were written. Insurer columns (reported_*, raw_id) are kept.
 */
export async function upsertLedgerRows(
  trx: Trx,
  table: LedgerTable,
  settleMonth: string,
  runId: number,
  rows: readonly LedgerRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const { rows: written } = await sql<{ contract_id: number }>`
    INSERT INTO ${sql.table(table)} AS t (
      contract_id, agent_id, policy_no, company_code, product_code, insurance_type, commission_year, premium,
      pay_method, company_rate, company_amount, payout_rate, agent_amount, tax_amount, reconcile_status,
      reconcile_diff, calc_basis, settle_month, run_id)
    SELECT u."contractId", u."agentId", u."policyNo", u."companyCode", u."productCode", u."insuranceType",
           u."commissionYear", u.premium, u."payMethod", u."companyRate", u."companyAmount", u."payoutRate",
           u."agentAmount", u."taxAmount", u."reconcileStatus", u."reconcileDiff", u."calcBasis"::jsonb,
           ${settleMonth}::char(6), ${runId}::bigint
    FROM json_to_recordset(${JSON.stringify(rows)}::json) AS u(
      "contractId" bigint, "agentId" bigint, "policyNo" text, "companyCode" text, "productCode" text,
      "insuranceType" text, "commissionYear" int, premium numeric, "payMethod" text, "companyRate" numeric,
      "companyAmount" numeric, "payoutRate" numeric, "agentAmount" numeric, "taxAmount" numeric,
      "reconcileStatus" text, "reconcileDiff" numeric, "calcBasis" text)
    ON CONFLICT (contract_id, settle_month, commission_year) DO UPDATE SET
      agent_id = EXCLUDED.agent_id, policy_no = EXCLUDED.policy_no, company_code = EXCLUDED.company_code,
      product_code = EXCLUDED.product_code, insurance_type = EXCLUDED.insurance_type, premium = EXCLUDED.premium,
      pay_method = EXCLUDED.pay_method, company_rate = EXCLUDED.company_rate,
      company_amount = EXCLUDED.company_amount, payout_rate = EXCLUDED.payout_rate,
      agent_amount = EXCLUDED.agent_amount, tax_amount = EXCLUDED.tax_amount,
      reconcile_status = EXCLUDED.reconcile_status, reconcile_diff = EXCLUDED.reconcile_diff,
      calc_basis = EXCLUDED.calc_basis, run_id = EXCLUDED.run_id, version = t.version + 1, updated_at = now()
    WHERE t.status = 'CALCULATED'
    RETURNING contract_id`.execute(trx);
  return written.length;
}

/** Removes stale computed-only rows (no insurer data) of the given keys, CALCULATED only. */
export async function deleteLedgerRows(
  trx: Trx,
  table: LedgerTable,
  settleMonth: string,
  keys: readonly { contractId: number; commissionYear: number }[],
): Promise<number> {
  if (keys.length === 0) return 0;
  const result = await sql`
    DELETE FROM ${sql.table(table)} t
    USING unnest(${keys.map((k) => k.contractId)}::bigint[], ${keys.map((k) => k.commissionYear)}::int[]) AS k(contract_id, commission_year)
    WHERE t.settle_month = ${settleMonth} AND t.contract_id = k.contract_id
      AND t.commission_year = k.commission_year AND t.status = 'CALCULATED'
      AND t.raw_id IS NULL AND t.reported_company_amount IS NULL`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** Stale rows that carry insurer data: system figures reset to 0, reconciled against 0. */
export async function zeroLedgerRows(
  trx: Trx,
  table: LedgerTable,
  settleMonth: string,
  runId: number,
  rows: readonly {
    contractId: number;
    commissionYear: number;
    reconcileStatus: string;
    reconcileDiff: string | null;
    calcBasis: string;
  }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await sql`
    UPDATE ${sql.table(table)} t SET
      company_rate = 0, company_amount = 0, payout_rate = 0, agent_amount = 0, tax_amount = 0,
      reconcile_status = k.reconcile_status, reconcile_diff = k.reconcile_diff, calc_basis = k.calc_basis,
      run_id = ${runId}, version = t.version + 1, updated_at = now()
    FROM unnest(${rows.map((r) => r.contractId)}::bigint[], ${rows.map((r) => r.commissionYear)}::int[],
                ${rows.map((r) => r.reconcileStatus)}::text[], ${rows.map((r) => r.reconcileDiff)}::numeric[],
                ${rows.map((r) => r.calcBasis)}::jsonb[]) AS k(contract_id, commission_year, reconcile_status, reconcile_diff, calc_basis)
    WHERE t.settle_month = ${settleMonth} AND t.contract_id = k.contract_id
      AND t.commission_year = k.commission_year AND t.status = 'CALCULATED'`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}
