import { defineStep, type StepContext, type StepCounts, type Trx } from '@csp/batch';
import { ensureMonthPartitions } from '@csp/db';
import { firstDayOfMonth } from '@csp/domain';
import { sql } from 'kysely';
import { loadContractsByPolicy } from '../batch/contracts.js';
import { upsertReportedFigures, type PendingLedgerWrite } from '../batch/ledger-writer.js';
import { loadCompanyRules } from '../batch/mappings.js';
import {
  loadPendingRawRows,
  pendingRanges,
  replaceOpenErrors,
  writeRawOutcomes,
  type ErrorRow,
  type PendingRawRow,
  type RawOutcome,
} from '../batch/raw-rows.js';
import { intakeDb } from '../db.js';
import { mapRecord, type LedgerTable, type MappedRecord } from '../transform/record-mapper.js';
import { resolveLedgerRow } from '../transform/resolve-ledger-row.js';
import { ledgerKey, setBasedPass, type FastKey, type SetPassResult } from './transform-set.js';

/**
 * Whether a chunk first runs the set-based pass (transform-set.ts: the mappings compiled to SQL, the
 * JS mapper only for what it leaves). On since the pass reads contracts through the unique B-tree
 * (the trigram index had made a 4,100-row month 3-5 x slower than the JS mapper) and a chunk's raw
 * rows through a (carrier, month, raw_id) index (V131): on the 600,000-row intake bench the pass
 * leaves node idle (1.4 s CPU against 16-17 s) and PostgreSQL does the mapping. Identical results
 * either way (test/transform-set.test.ts).
 */
export const SET_BASED_TRANSFORM = true;

/** PENDING raw rows per chunk (spec: 1,000-5,000 records per chunk). */
export const TRANSFORM_CHUNK_SIZE = 2_000;

/**
 * Step 2 (spec 1.3): maps the month's PENDING raw rows to recruit/maintain ledger rows. Chunked by
 * raw_id ranges of 2,000 PENDING rows; each chunk's ledger writes, raw row statuses, parse errors and
 * checkpoint commit in one transaction. Only PENDING rows are taken, so a re-run never repeats work.
 * With SET_BASED_TRANSFORM a chunk is first one set-based statement for the rows the SQL maps
 * exactly; the rest (errors, unusual values) go through the JS mapper, the one source of row errors.
 */
export const transformData = defineStep({
  name: 'transformData',
  // A chunk is one statement in PostgreSQL: two at once use both cores (as receive/process does).
  concurrency: 2,
  // The carrier rows go straight into the month's ledger partitions: written into the default partition
  // they would be moved by calcRecruit's hook (600,000 rows: 7.7 s).
  plan: async (ctx) => {
    await ensureMonthPartitions(ctx.db, ctx.settleMonth);
    const ranges = await pendingRanges(
      intakeDb(ctx.db),
      ctx.settleMonth,
      ctx.companyCode,
      TRANSFORM_CHUNK_SIZE,
    );
    return ranges.map((r, i) => ({ chunkNo: i + 1, from: r.from, to: r.to }));
  },
  run: async (ctx, chunk) => {
    if (!chunk) throw new Error('transformData runs in chunks');
    return ctx.chunkTransaction((trx) => transformChunk(ctx, trx, chunk));
  },
});

interface Resolved {
  rawId: number;
  companyCode: string;
  record: MappedRecord;
  reportedAmount: string | null;
}

/** What a chunk needs of its step context (the receive API runs chunks outside a batch run). */
export type TransformScope = Pick<StepContext, 'settleMonth' | 'companyCode' | 'progress'>;

/** Carriers with PENDING rows in the range (one when the scope names the carrier). */
async function carriersOf(
  trx: Trx,
  ctx: TransformScope,
  range: { from: number; to: number },
): Promise<string[]> {
  if (ctx.companyCode !== undefined) return [ctx.companyCode];
  const { rows } = await sql<{ company_code: string }>`
    SELECT DISTINCT company_code FROM raw_commission_data
    WHERE settle_month = ${ctx.settleMonth} AND parse_status = 'PENDING'
      AND raw_id BETWEEN ${range.from}::bigint AND ${range.to}::bigint`.execute(trx);
  return rows.map((r) => r.company_code);
}

/** One chunk of PENDING raw rows (raw_id range) of the month, in the caller's transaction. */
export async function transformChunk(
  ctx: TransformScope,
  trx: Trx,
  range: { from: number; to: number },
  options: { setBased?: boolean } = {},
): Promise<StepCounts> {
  const month = ctx.settleMonth;
  let pass: SetPassResult;
  let rules: Awaited<ReturnType<typeof loadCompanyRules>>;
  if (options.setBased ?? SET_BASED_TRANSFORM) {
    const carriers = await carriersOf(trx, ctx, range);
    if (carriers.length === 0) return { total: 0, success: 0, error: 0, skipped: 0 };
    rules = await loadCompanyRules(intakeDb(trx), carriers, firstDayOfMonth(month));
    pass = await setBasedPass(trx, month, ctx.companyCode, range, rules);
  } else {
    const rows = await loadPendingRawRows(trx, month, ctx.companyCode, range);
    if (rows.length === 0) return { total: 0, success: 0, error: 0, skipped: 0 };
    rules = await loadCompanyRules(intakeDb(trx), [...new Set(rows.map((r) => r.company_code))], firstDayOfMonth(month));
    pass = { total: rows.length, ok: 0, rest: rows, written: new Map() };
  }
  const rest = await mapRest(ctx, trx, pass.rest, rules, pass.written);

  ctx.progress(pass.total);
  const success = pass.ok + rest.success;
  const processed = pass.ok + rest.processed;
  return { total: pass.total, success, error: rest.error, skipped: pass.total - processed };
}

/** The rows the set-based pass left: mapped one by one, as the step has always done. */
async function mapRest(
  ctx: TransformScope,
  trx: Trx,
  rows: readonly PendingRawRow[],
  rules: Awaited<ReturnType<typeof loadCompanyRules>>,
  writtenBySet: ReadonlyMap<string, FastKey>,
): Promise<{ success: number; error: number; processed: number }> {
  if (rows.length === 0) return { success: 0, error: 0, processed: 0 };
  const month = ctx.settleMonth;
  const outcomes = new Map<number, RawOutcome>();
  const errors: ErrorRow[] = [];
  const mapped: Resolved[] = [];

  for (const row of rows) {
    const company = rules.get(row.company_code)!;
    const result = mapRecord(
      { dataType: row.data_type, rawContent: row.raw_content, settleMonth: month },
      company.mappingsOf,
      company.context,
    );
    if (result.ok) {
      mapped.push({
        rawId: row.raw_id,
        companyCode: row.company_code,
        record: result.record,
        reportedAmount: result.reportedAmount,
      });
    } else {
      errors.push({ rawId: row.raw_id, companyCode: row.company_code, error: result.error });
      outcomes.set(row.raw_id, {
        rawId: row.raw_id,
        status: 'ERROR',
        ledgerId: null,
        table: null,
        reportedAmount: result.reportedAmount,
      });
    }
  }

  const contracts = await loadContractsByPolicy(
    trx,
    mapped.map((m) => m.record.policyNo),
  );
  const writes: Record<LedgerTable, PendingLedgerWrite[]> = { recruit_ledger: [], maintain_ledger: [] };
  for (const m of mapped) {
    const resolved = resolveLedgerRow(m.record, contracts.get(m.record.policyNo), m.companyCode, month);
    if (resolved.ok) {
      const row = resolved.row;
      // A newer record of the same key written by the set-based pass keeps its figures (the highest
      // raw_id of a chunk is written); this one points to that ledger row.
      const newer = writtenBySet.get(ledgerKey(row.table, row.contractId, row.commissionYear));
      if (newer && newer.rawId > m.rawId) {
        outcomes.set(m.rawId, {
          rawId: m.rawId,
          status: 'OK',
          ledgerId: newer.ledgerId,
          table: row.table,
          reportedAmount: m.reportedAmount,
        });
      } else writes[row.table].push({ ...row, rawId: m.rawId });
    } else {
      errors.push({ rawId: m.rawId, companyCode: m.companyCode, error: resolved.error });
      outcomes.set(m.rawId, {
        rawId: m.rawId,
        status: 'ERROR',
        ledgerId: null,
        table: null,
        reportedAmount: m.reportedAmount,
      });
    }
  }

  const reportedOf = new Map(mapped.map((m) => [m.rawId, m.reportedAmount]));
  for (const table of ['recruit_ledger', 'maintain_ledger'] as const) {
    const written = await upsertReportedFigures(trx, table, month, writes[table]);
    for (const [rawId, ledgerId] of written) {
      outcomes.set(rawId, {
        rawId,
        status: 'OK',
        ledgerId,
        table,
        reportedAmount: reportedOf.get(rawId) ?? null,
      });
    }
  }

  // Rows whose ledger row is frozen (not CALCULATED, or the agent's month is confirmed) stay PENDING.
  const processed = [...outcomes.values()];
  await writeRawOutcomes(trx, processed);
  await replaceOpenErrors(
    trx,
    month,
    processed.map((o) => o.rawId),
    errors,
  );
  const success = processed.filter((o) => o.status === 'OK').length;
  return { success, error: errors.length, processed: processed.length };
}
