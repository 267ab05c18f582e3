import { defineStep, type StepContext, type StepCounts, type Trx } from '@csp/batch';
import { firstDayOfMonth } from '@csp/domain';
import { loadContractsByPolicy } from '../batch/contracts.js';
import { upsertReportedFigures, type PendingLedgerWrite } from '../batch/ledger-writer.js';
import { loadCompanyRules } from '../batch/mappings.js';
import {
  loadPendingRawRows,
  pendingRanges,
  replaceOpenErrors,
  writeRawOutcomes,
  type ErrorRow,
  type RawOutcome,
} from '../batch/raw-rows.js';
import { intakeDb } from '../db.js';
import { mapRecord, type LedgerTable, type MappedRecord } from '../transform/record-mapper.js';
import { resolveLedgerRow } from '../transform/resolve-ledger-row.js';

/** PENDING raw rows per chunk (spec: 1,000-5,000 records per chunk). */
export const TRANSFORM_CHUNK_SIZE = 2_000;

/**
 * Step 2 (spec 1.3): maps the month's PENDING raw rows to recruit/maintain ledger rows. Chunked by
 * raw_id ranges of 2,000 PENDING rows; each chunk's ledger writes, raw row statuses, parse errors and
 * checkpoint commit in one transaction. Only PENDING rows are taken, so a re-run never repeats work.
 */
export const transformData = defineStep({
  name: 'transformData',
  plan: async (ctx) => {
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

/** One chunk of PENDING raw rows (raw_id range) of the month, in the caller's transaction. */
export async function transformChunk(
  ctx: TransformScope,
  trx: Trx,
  range: { from: number; to: number },
): Promise<StepCounts> {
  const month = ctx.settleMonth;
  const rows = await loadPendingRawRows(trx, month, ctx.companyCode, range);
  if (rows.length === 0) return { total: 0, success: 0, error: 0, skipped: 0 };

  const rules = await loadCompanyRules(
    intakeDb(trx),
    [...new Set(rows.map((r) => r.company_code))],
    firstDayOfMonth(month),
  );
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
      writes[resolved.row.table].push({ ...resolved.row, rawId: m.rawId });
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

  ctx.progress(rows.length);
  const success = processed.filter((o) => o.status === 'OK').length;
  return { total: rows.length, success, error: errors.length, skipped: rows.length - processed.length };
}
