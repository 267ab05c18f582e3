import { sql, type InsertObject, type Kysely } from 'kysely';
import { clientTransaction, CopyWriter, type CopyValue, type Database, type Db } from '@csp/db';
import { AppError, invalid, type FieldCipher, type PermCode } from '@csp/service-kit';
import type { FileStore } from '../common/file-store.js';
import { cleanCell, firstBadCell, headerProblem } from '../parsing/cell-text.js';
import { columnLetter } from '../parsing/columns.js';
import type { SpooledFile } from '../parsing/spool.js';
import { asFileRefusal } from '../parsing/limits.js';
import {
  isBlankRow,
  openTabular,
  type SheetRow,
  type TabularSource,
} from '../parsing/tabular.js';
import { ErrorSink, ERROR_SAMPLE_SIZE } from './error-file.js';
import { RowConverter, type Converted, type RowError } from './row-converter.js';
import { codeMapperFor, loadTemplatePlan, type TemplatePlan } from './template-plan.js';
import type { Prepared, TargetSession } from './targets/index.js';
import type { CellValue } from './value-types.js';

/** Spec 8: rows are written in batches of 1000, each committed separately. */
export const IMPORT_BATCH_SIZE = 1000;
/** Batches being written at the same time (two connections; PostgreSQL indexes one while the next is copied). */
const WRITES_IN_FLIGHT = 2;
/** Spec 8: a preview shows at most 100 rows. */
export const PREVIEW_LIMIT = 100;

export interface ImportDeps {
  db: Db;
  files: FileStore;
  cipher: FieldCipher;
}

export interface ImportResult {
  historyId: number;
  totalCount: number;
  successCount: number;
  errorCount: number;
  errorFileId: number | null;
  errors: RowError[];
}

export interface PreviewRow {
  rowNumber: number;
  ok: boolean;
  values: Record<string, CellValue>;
  error: RowError | null;
}

async function openFor(
  plan: TemplatePlan,
  file: SpooledFile,
  encoding: string | undefined,
): Promise<TabularSource> {
  try {
    return await openTabular(file.path, {
      sheetIndex: plan.sheetIndex,
      encoding: encoding ?? 'UTF-8',
      delimiter: ',',
    });
  } catch (err) {
    throw asFileRefusal(err);
  }
}

/**
 * The data rows of the file: the header row (if any) is checked against the columns' expected
 * headers before anything is imported; blank rows are skipped.
 */
async function* dataRows(
  plan: TemplatePlan,
  source: TabularSource,
  onTotal?: (n: number) => void,
  onHeader?: (cells: readonly string[]) => void,
): AsyncGenerator<SheetRow> {
  let headerSeen = plan.headerRow === 0;
  try {
    for await (const row of source.rows(onTotal)) {
      if (!headerSeen && row.rowNumber >= plan.headerRow) {
        headerSeen = true;
        if (row.rowNumber === plan.headerRow) {
          const problem = headerProblem(row.cells, columnLetter);
          if (problem) throw invalid('file', problem);
          checkHeaders(plan, row.cells);
          onHeader?.(row.cells);
        }
      }
      if (row.rowNumber < plan.dataStartRow || isBlankRow(row.cells)) continue;
      yield row;
    }
  } catch (err) {
    // a reader's refusal (over a limit, damaged) is E411 on the file
    throw asFileRefusal(err);
  }
}

/**
 * Reads the whole file once before anything is stored (DECISIONS "Text input"): a file over a
 * limit (columns, line length, zip sizes) or without data rows is refused with E411 while the
 * import has not written a row. Parsing without converting is a fraction of an import's time.
 * (Batches are committed one by one (spec 8), so a refusal found while writing could not be undone.)
 */
async function assertImportable(plan: TemplatePlan, source: TabularSource): Promise<void> {
  let dataRowCount = 0;
  for await (const row of dataRows(plan, source)) {
    void row;
    dataRowCount++;
  }
  if (dataRowCount === 0) throw invalid('file', 'the file has no data rows');
}

/**
 * A row with a cell holding NUL or a lone surrogate is an error row naming the column (the
 * template's target field when the column is mapped); its cells go to the error file cleaned.
 */
function cellTextError(plan: TemplatePlan, row: SheetRow): Extract<Converted, { ok: false }> | undefined {
  const bad = firstBadCell([], row.cells, columnLetter);
  if (!bad) return undefined;
  const column = plan.columns.find((c) => c.sourceColumn === bad.column);
  return {
    ok: false,
    row: { ...row, cells: row.cells.map((c) => cleanCell(c)) },
    error: {
      rowNumber: row.rowNumber,
      field: column?.targetField ?? bad.column,
      value: bad.value.length > 200 ? `${bad.value.slice(0, 197)}...` : bad.value,
      message: `column ${bad.column}${column ? ` (${column.targetField})` : ''} ${bad.message}`,
    },
  };
}

/** The rows through the template: the cell-text error rows first, then the converter's outcomes. */
async function convertRows(plan: TemplatePlan, converter: RowConverter, rows: readonly SheetRow[]): Promise<Converted[]> {
  const converted: Converted[] = [];
  const clean: SheetRow[] = [];
  for (const row of rows) {
    const bad = cellTextError(plan, row);
    if (bad) converted.push(bad);
    else clean.push(row);
  }
  return converted.concat(await converter.convert(clean));
}

function checkHeaders(plan: TemplatePlan, cells: readonly string[]): void {
  const problems = plan.columns
    .filter((c) => c.sourceHeader !== null && c.sourceHeader.trim() !== '')
    .filter((c) => (cells[c.index] ?? '').trim().toLowerCase() !== c.sourceHeader!.trim().toLowerCase())
    .map(
      (c) =>
        `column ${c.sourceColumn} is '${(cells[c.index] ?? '').trim()}', expected '${c.sourceHeader!.trim()}'`,
    );
  if (problems.length) {
    const message = `the file does not match upload template ${plan.templateCode}: ${problems.join('; ')}`;
    throw new AppError('INVALID_PARAMETER', message, { errors: [{ field: 'file', message }] });
  }
}

function pgMessage(err: unknown): string | undefined {
  const e = err as { code?: unknown; constraint?: unknown; detail?: unknown; message?: unknown };
  if (typeof e?.code !== 'string' || !/^[0-9A-Z]{5}$/.test(e.code)) return undefined;
  // a month partition's key is named <table key>_p<YYYYMM> (V130): name the table's key
  const constraint = typeof e.constraint === 'string' ? ` (${e.constraint.replace(/_p([0-9]{6}|default)$/, '')})` : '';
  switch (e.code) {
    case '23505':
      return `duplicate: the row already exists${constraint}`;
    case '23503':
      return `refers to a row that does not exist${constraint}`;
    case '23514':
      return `breaks a rule of the table${constraint}`;
    case '23502':
      return `a required value is missing${constraint}`;
    case '22001':
    case '22003':
    case '22007':
    case '22008':
    case '22P02':
      return `a value does not fit the column: ${String(e.message)}`;
    default:
      return undefined;
  }
}

interface BatchOutcome {
  inserted: number;
  errors: Array<{ error: RowError; cells: readonly string[] }>;
}

async function recordProgress(
  trx: Kysely<Database>,
  historyId: number,
  handled: number,
  inserted: number,
  rejected: number,
): Promise<void> {
  await trx
    .updateTable('upload_history')
    .set({
      processed_count: sql<number>`processed_count + ${handled}`,
      total_count: sql<number>`total_count + ${handled}`,
      success_count: sql<number>`success_count + ${inserted}`,
      error_count: sql<number>`error_count + ${rejected}`,
    })
    .where('history_id', '=', historyId)
    .execute();
}

/** The session's own insert, else a plain multi-row insert of the rows into its copy table. */
async function insertRows(
  session: TargetSession<unknown, unknown>,
  trx: Kysely<Database>,
  rows: readonly unknown[],
): Promise<void> {
  if (session.copyTable === undefined) return session.insert(trx, rows);
  if (session.insert) return session.insert(trx, rows);
  const table = session.copyTable;
  // the values are the copy table's columns (TargetSession's contract)
  await trx
    .insertInto(table)
    .values(rows as ReadonlyArray<InsertObject<Database, typeof table>>)
    .execute();
}

/**
 * One batch in one transaction with the history row's progress: COPY of the prepared rows where the
 * target allows it (else one multi-row insert). When the database refuses the batch (a duplicate
 * key, say) it is written again row by row under savepoints, so only the offending rows fail.
 */
async function writeBatch(
  db: Db,
  session: TargetSession<unknown, unknown>,
  historyId: number,
  handled: number,
  ready: Array<{ row: SheetRow; values: unknown }>,
  rejectedCount: number,
): Promise<BatchOutcome> {
  const table = session.copyTable;
  if (table && ready.length > 0) {
    try {
      return await clientTransaction(db, async ({ db: trx, client }) => {
        const columns = Object.keys(ready[0]!.values as Record<string, unknown>);
        const writer = new CopyWriter(client, table, columns, IMPORT_BATCH_SIZE);
        for (const r of ready) {
          const values = r.values as Record<string, CopyValue | undefined>;
          writer.write(columns.map((c) => values[c] ?? null));
        }
        await writer.end();
        await recordProgress(trx, historyId, handled, ready.length, rejectedCount);
        return { inserted: ready.length, errors: [] };
      });
    } catch (err) {
      if (pgMessage(err) === undefined) throw err;
    }
  }
  return db.transaction().execute(async (trx) => {
    const errors: BatchOutcome['errors'] = [];
    let inserted = 0;
    if (ready.length > 0) {
      await sql`SAVEPOINT import_batch`.execute(trx);
      try {
        await insertRows(
          session,
          trx,
          ready.map((r) => r.values),
        );
        inserted = ready.length;
        await sql`RELEASE SAVEPOINT import_batch`.execute(trx);
      } catch (err) {
        if (pgMessage(err) === undefined) throw err;
        await sql`ROLLBACK TO SAVEPOINT import_batch`.execute(trx);
        for (const r of ready) {
          await sql`SAVEPOINT import_row`.execute(trx);
          try {
            await insertRows(session, trx, [r.values]);
            await sql`RELEASE SAVEPOINT import_row`.execute(trx);
            inserted++;
          } catch (rowErr) {
            const message = pgMessage(rowErr);
            if (message === undefined) throw rowErr;
            await sql`ROLLBACK TO SAVEPOINT import_row`.execute(trx);
            errors.push({
              error: { rowNumber: r.row.rowNumber, field: null, value: null, message },
              cells: r.row.cells,
            });
          }
        }
      }
    }
    await recordProgress(trx, historyId, handled, inserted, rejectedCount + errors.length);
    return { inserted, errors };
  });
}

async function prepareBatch(
  plan: TemplatePlan,
  converter: RowConverter,
  session: TargetSession<unknown, unknown>,
  batch: SheetRow[],
): Promise<{
  ready: Array<{ row: SheetRow; values: unknown }>;
  rejected: Array<{ error: RowError; cells: readonly string[] }>;
}> {
  const rejected: Array<{ error: RowError; cells: readonly string[] }> = [];
  const converted = await convertRows(plan, converter, batch);
  const valid: Array<Extract<Converted, { ok: true }>> = [];
  for (const c of converted) {
    if (c.ok) valid.push(c);
    else rejected.push({ error: c.error, cells: c.row.cells });
  }
  const prepared: Prepared<unknown>[] = valid.length ? await session.prepare(valid.map((v) => v.data)) : [];
  const ready: Array<{ row: SheetRow; values: unknown }> = [];
  prepared.forEach((p, i) => {
    const row = valid[i]!.row;
    if (p.ok) ready.push({ row, values: p.values });
    else {
      const raw = p.field === null ? null : valid[i]!.values[p.field];
      rejected.push({
        error: {
          rowNumber: row.rowNumber,
          field: p.field,
          value: raw === null || raw === undefined ? null : String(raw),
          message: p.field === null ? p.message : `${p.field}: ${p.message}`,
        },
        cells: row.cells,
      });
    }
  });
  return { ready, rejected };
}

async function converterFor(db: Db, plan: TemplatePlan): Promise<RowConverter> {
  return new RowConverter(plan.columns, plan.target, await codeMapperFor(db, plan), db, plan.companyCode);
}

export interface ImportInput {
  templateCode: string;
  file: SpooledFile;
  encoding: string | undefined;
  userId: number | null;
  /** Checks the target table's own permission (the route knows the user). */
  authorize(menu: string, perm: PermCode): Promise<void>;
}

/**
 * Spreadsheet import (spec 4.3, 8): streams the file, converts rows through the template, writes
 * batches of 1000 rows each committed on its own (the next batch is converted while the previous
 * one is written), keeps progress on the upload_history row, and stores an error spreadsheet of
 * the rejected rows with their reasons.
 */
export async function runImport(deps: ImportDeps, input: ImportInput): Promise<ImportResult> {
  const { db } = deps;
  const plan = await loadTemplatePlan(db, input.templateCode);
  await input.authorize(plan.target.permission.menu, plan.target.permission.perm);
  const source = await openFor(plan, input.file, input.encoding);
  await assertImportable(plan, source);
  const history = await db
    .insertInto('upload_history')
    .values({
      template_id: plan.templateId,
      template_code: plan.templateCode,
      file_name: input.file.fileName,
      target_table: plan.targetTable,
      created_by: input.userId,
    })
    .returning('history_id')
    .executeTakeFirstOrThrow();
  const historyId = history.history_id;
  const sink = new ErrorSink();
  try {
    const converter = await converterFor(db, plan);
    const session = plan.target.open({
      db,
      cipher: deps.cipher,
      userId: input.userId,
      companyCode: plan.companyCode,
    });
    // The next batch is read and converted while earlier ones are written (at most WRITES_IN_FLIGHT).
    const inFlight: Array<Promise<void>> = [];
    const flush = async (batch: SheetRow[]) => {
      const { ready, rejected } = await prepareBatch(plan, converter, session, batch);
      while (inFlight.length >= WRITES_IN_FLIGHT) await inFlight.shift();
      for (const r of rejected) await sink.add(r.error, r.cells);
      const write = writeBatch(db, session, historyId, batch.length, ready, rejected.length).then(
        async (outcome) => {
          for (const e of outcome.errors) await sink.add(e.error, e.cells);
        },
      );
      // a failed write surfaces when it is awaited; keep it from being reported as unhandled meanwhile
      write.catch(() => undefined);
      inFlight.push(write);
    };
    const onTotal = (lastRow: number) => {
      const estimate = Math.max(0, lastRow - plan.dataStartRow + 1);
      void db
        .updateTable('upload_history')
        .set({ estimated_total: estimate })
        .where('history_id', '=', historyId)
        .execute()
        .catch(() => undefined);
    };
    let batch: SheetRow[] = [];
    for await (const row of dataRows(plan, source, onTotal, (cells) => (sink.header = cells))) {
      batch.push(row);
      if (batch.length === IMPORT_BATCH_SIZE) {
        await flush(batch);
        batch = [];
      }
    }
    if (batch.length) await flush(batch);
    while (inFlight.length) await inFlight.shift();
    sink.sample.sort((a, b) => a.rowNumber - b.rowNumber);

    const errorFileId =
      (await sink.store(db, deps.files, `${plan.templateCode}-errors-${historyId}.xlsx`, input.userId)) ??
      null;
    const fileId = await deps.files.adopt(db, input.file.path, {
      groupId: `upload-${plan.templateCode}`,
      originalName: input.file.fileName,
      contentType: null,
      createdBy: input.userId,
    });
    const done = await db
      .updateTable('upload_history')
      .set({
        status: 'COMPLETED',
        ended_at: new Date(),
        file_id: fileId,
        error_file_id: errorFileId,
        error_sample: JSON.stringify(sink.sample),
      })
      .where('history_id', '=', historyId)
      .returning(['total_count', 'success_count', 'error_count'])
      .executeTakeFirstOrThrow();
    return {
      historyId,
      totalCount: done.total_count,
      successCount: done.success_count,
      errorCount: done.error_count,
      errorFileId,
      errors: sink.sample,
    };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await db
      .updateTable('upload_history')
      .set({
        status: 'FAILED',
        ended_at: new Date(),
        error_message: message.slice(0, 1000),
        error_sample: JSON.stringify(sink.sample),
      })
      .where('history_id', '=', historyId)
      .execute();
    throw err;
  } finally {
    await sink.dispose();
  }
}

export interface PreviewResult {
  templateCode: string;
  targetTable: string;
  columns: Array<{ sourceColumn: string; sourceHeader: string | null; targetField: string }>;
  rows: PreviewRow[];
}

/** The first `limit` data rows converted and checked as the import would, nothing written. */
export async function previewImport(
  deps: ImportDeps,
  templateCode: string,
  file: SpooledFile,
  limit: number,
  encoding: string | undefined,
): Promise<PreviewResult> {
  const { db } = deps;
  if (limit > PREVIEW_LIMIT) throw invalid('limit', `must be at most ${PREVIEW_LIMIT}`);
  const plan = await loadTemplatePlan(db, templateCode);
  const source = await openFor(plan, file, encoding);
  const rows: SheetRow[] = [];
  const iterator = dataRows(plan, source);
  try {
    for await (const row of iterator) {
      rows.push(row);
      if (rows.length >= limit) break;
    }
  } finally {
    await iterator.return(undefined);
  }
  if (rows.length === 0) throw invalid('file', 'the file has no data rows');
  const converter = await converterFor(db, plan);
  const session = plan.target.open({ db, cipher: deps.cipher, userId: null, companyCode: plan.companyCode });
  const converted = await convertRows(plan, converter, rows);
  converted.sort((a, b) => a.row.rowNumber - b.row.rowNumber);
  const valid = converted.filter((c): c is Extract<Converted, { ok: true }> => c.ok);
  const prepared = valid.length ? await session.prepare(valid.map((v) => v.data)) : [];
  const preparedOf = new Map(valid.map((v, i) => [v.row.rowNumber, prepared[i]!]));
  const blankValues = () =>
    Object.fromEntries(plan.columns.map((c) => [c.targetField, null])) as Record<string, CellValue>;
  return {
    templateCode,
    targetTable: plan.targetTable,
    columns: plan.columns.map((c) => ({
      sourceColumn: c.sourceColumn,
      sourceHeader: c.sourceHeader,
      targetField: c.targetField,
    })),
    rows: converted.map((c): PreviewRow => {
      if (!c.ok) return { rowNumber: c.row.rowNumber, ok: false, values: blankValues(), error: c.error };
      const p = preparedOf.get(c.row.rowNumber)!;
      if (p.ok) return { rowNumber: c.row.rowNumber, ok: true, values: c.values, error: null };
      return {
        rowNumber: c.row.rowNumber,
        ok: false,
        values: c.values,
        error: {
          rowNumber: c.row.rowNumber,
          field: p.field,
          value: null,
          message: p.field ? `${p.field}: ${p.message}` : p.message,
        },
      };
    }),
  };
}

/** For the excel-headers helper: column letters of a header row. */
export function lettered(cells: readonly string[]): Array<{ column: string; index: number; header: string }> {
  return cells.map((header, index) => ({ column: columnLetter(index), index, header }));
}

export { ERROR_SAMPLE_SIZE };
