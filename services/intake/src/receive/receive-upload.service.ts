import {
  clientTransaction,
  CopyWriter,
  type Db,
  type MappingTargetTable,
  type ReceiveFileKind,
} from '@csp/db';
import { firstDayOfMonth } from '@csp/domain';
import { AppError, invalid, notFound } from '@csp/service-kit';
import { sql } from 'kysely';
import type { FileStore } from '../common/file-store.js';
import { intakeDb } from '../db.js';
import { activeMappings } from '../mappings/mapping-lookup.js';
import { isSupportedEncoding } from '../parsing/csv-reader.js';
import type { SpooledFile } from '../parsing/spool.js';
import { LEDGER_OF, type DataType } from '../transform/record-mapper.js';
import { openCarrierFile } from './carrier-records.js';
import { describeLayout, hasProblems } from './layout-check.js';

export interface ReceiveUploadInput {
  companyCode: string;
  settleMonth: string;
  /** RECRUIT or MAINTAIN for the whole file; undefined when the file has a DATA_TYPE column. */
  dataType: DataType | undefined;
  replace: boolean;
  file: SpooledFile;
  userId: number | null;
}

export interface ReceiveUploadResult {
  receiveFileId: number;
  fileId: number;
  companyCode: string;
  settleMonth: string;
  dataType: DataType | null;
  fileName: string;
  fileKind: ReceiveFileKind;
  rowCount: number;
  header: string[];
  replacedReceiveFileId: number | null;
}

export interface Profile {
  data_format: string;
  file_encoding: string;
  delimiter: string | null;
  header_row: number;
  data_start_row: number;
  sheet_name: string | null;
  is_active: boolean;
}

const DEFAULT_PROFILE: Profile = {
  data_format: 'EXCEL',
  file_encoding: 'UTF-8',
  delimiter: ',',
  header_row: 1,
  data_start_row: 2,
  sheet_name: null,
  is_active: true,
};

/** XML is not received yet (see API.md). */
const UPLOADABLE_FORMATS = new Set(['EXCEL', 'CSV', 'FIXED', 'JSON']);

const COPY_COLUMNS = [
  'company_code',
  'batch_id',
  'settle_month',
  'data_type',
  'raw_content',
  'file_name',
  'row_number',
  'receive_file_id',
  'created_by',
  'parse_status',
] as const;

/**
 * Rows with NUL or lone surrogates become error rows; a file with more of them than this is not
 * text in the profile's encoding (UTF-16 read as UTF-8 puts a NUL in every cell) and is refused.
 */
export const MAX_CELL_ERROR_ROWS = 1000;

interface CellError {
  rowNumber: number;
  field: string;
  value: string;
  message: string;
}

export async function loadCarrier(db: Db, companyCode: string): Promise<Profile> {
  const row = await intakeDb(db)
    .selectFrom('insurance_company as ic')
    .leftJoin('company_profile as cp', 'cp.company_code', 'ic.company_code')
    .select([
      'ic.is_active as company_active',
      'cp.company_code as profile_code',
      'cp.data_format',
      'cp.file_encoding',
      'cp.delimiter',
      'cp.header_row',
      'cp.data_start_row',
      'cp.sheet_name',
      'cp.is_active',
    ])
    .where('ic.company_code', '=', companyCode)
    .executeTakeFirst();
  if (!row) throw notFound(`Insurance company ${companyCode}`);
  if (!row.company_active) throw invalid('companyCode', `insurance company ${companyCode} is inactive`);
  if (row.profile_code === null) return DEFAULT_PROFILE;
  const profile: Profile = {
    data_format: row.data_format!,
    file_encoding: row.file_encoding!,
    delimiter: row.delimiter,
    header_row: row.header_row!,
    data_start_row: row.data_start_row!,
    sheet_name: row.sheet_name,
    is_active: row.is_active!,
  };
  if (!profile.is_active) throw invalid('companyCode', `the intake profile of ${companyCode} is inactive`);
  if (!UPLOADABLE_FORMATS.has(profile.data_format)) {
    throw invalid(
      'file',
      `data format ${profile.data_format} of ${companyCode} cannot be uploaded (EXCEL, CSV, FIXED and JSON can)`,
    );
  }
  if (!isSupportedEncoding(profile.file_encoding)) {
    throw invalid(
      'file',
      `file encoding ${profile.file_encoding} of the ${companyCode} profile is not supported`,
    );
  }
  return profile;
}

/**
 * Stores a carrier file as raw rows, one per record (spec 1.3 step 1, manual receive); the profile's
 * format says how to read it (carrier-records.ts: EXCEL/CSV, FIXED, JSON). Before any row is stored:
 * the header is checked against the active field mappings of the month (a renamed, moved or missing
 * column refuses the file, naming the columns), and the content hash against the
 * carrier's received files (B009 unless `replace`). The rows are streamed into one COPY in one
 * transaction: the file is stored completely or not at all.
 */
export async function receiveCarrierFile(
  db: Db,
  files: FileStore,
  input: ReceiveUploadInput,
): Promise<ReceiveUploadResult> {
  const { companyCode, settleMonth, file } = input;
  const profile = await loadCarrier(db, companyCode);
  // Layout: the mappings transformData will apply to this month.
  const tables: MappingTargetTable[] =
    input.dataType === undefined ? ['recruit_ledger', 'maintain_ledger'] : [LEDGER_OF[input.dataType]];
  const mappings = await activeMappings(intakeDb(db), companyCode, firstDayOfMonth(settleMonth), tables);
  const source = await openCarrierFile(file.path, {
    companyCode,
    profile,
    mappings,
    dataType: input.dataType,
  });
  try {
    if (hasProblems(source.layout)) {
      const message = `the file layout does not match the active field mapping of ${companyCode}: ${describeLayout(source.layout)}`;
      throw new AppError('INVALID_PARAMETER', message, {
        errors: [{ field: 'file', message }],
        layout: source.layout,
      });
    }

    const previous = await intakeDb(db)
      .selectFrom('receive_file')
      .select(['receive_file_id', 'settle_month', 'row_count', 'received_at'])
      .where('company_code', '=', companyCode)
      .where('content_hash', '=', file.sha256)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirst();
    if (previous && !input.replace) {
      throw new AppError(
        'DUPLICATE_DATA',
        `this file was already received from ${companyCode} for ${previous.settle_month} (upload ${previous.receive_file_id}, ` +
          `${previous.row_count} rows, ${previous.received_at.toISOString()}); send replace=true to replace it`,
        { receiveFileId: previous.receive_file_id },
      );
    }

    const stored = await clientTransaction(db, async ({ db: trx, client }) => {
      const tx = intakeDb(trx);
      if (previous) await retireFile(tx, previous.receive_file_id);
      const created = await tx
        .insertInto('receive_file')
        .values({
          company_code: companyCode,
          settle_month: settleMonth,
          data_type: input.dataType ?? null,
          file_name: file.fileName,
          content_hash: file.sha256,
          file_size: file.size,
          file_kind: source.kind,
          file_encoding: source.encoding,
          header: JSON.stringify(source.header),
          received_by: input.userId,
        })
        .returning('receive_file_id')
        .executeTakeFirstOrThrow();
      const receiveFileId = created.receive_file_id;
      const batchId = `UPLOAD-${receiveFileId}`;
      const writer = new CopyWriter(client, 'raw_commission_data', COPY_COLUMNS, 2000);
      const cellErrors: CellError[] = [];
      for await (const record of source.records()) {
        if (record.problem) {
          if (cellErrors.length >= MAX_CELL_ERROR_ROWS) {
            throw invalid(
              'file',
              `more than ${MAX_CELL_ERROR_ROWS} rows hold NUL or unpaired surrogate characters; is the file really ${source.encoding ?? 'an xlsx workbook'}?`,
            );
          }
          const { column, value, message } = record.problem;
          cellErrors.push({ rowNumber: record.rowNumber, field: column, value, message: `${column} ${message}` });
        }
        const full = writer.write([
          companyCode,
          batchId,
          settleMonth,
          record.dataType.slice(0, 20),
          record.content,
          file.fileName,
          record.rowNumber,
          receiveFileId,
          input.userId,
          record.problem ? 'ERROR' : 'PENDING',
        ]);
        if (full) await writer.flush();
      }
      const rowCount = await writer.end();
      if (rowCount === 0) throw invalid('file', 'the file has no data rows');
      if (cellErrors.length > 0) await logCellErrors(tx, receiveFileId, companyCode, settleMonth, cellErrors);
      const fileId = await files.adopt(trx, file.path, {
        groupId: `receive-${companyCode}-${settleMonth}`,
        originalName: file.fileName,
        contentType: CONTENT_TYPES[source.kind],
        createdBy: input.userId,
      });
      await tx
        .updateTable('receive_file')
        .set({ row_count: rowCount, file_id: fileId, updated_at: new Date() })
        .where('receive_file_id', '=', receiveFileId)
        .execute();
      if (previous) {
        await tx
          .updateTable('receive_file')
          .set({ replaced_by: receiveFileId })
          .where('receive_file_id', '=', previous.receive_file_id)
          .execute();
      }
      return { receiveFileId, fileId, rowCount };
    });
    return {
      ...stored,
      companyCode,
      settleMonth,
      dataType: input.dataType ?? null,
      fileName: file.fileName,
      fileKind: source.kind,
      header: source.header,
      replacedReceiveFileId: previous?.receive_file_id ?? null,
    };
  } finally {
    await source.close();
  }
}

/** One OPEN INVALID_INPUT parse error per error row (DECISIONS "Text input"), naming the column. */
async function logCellErrors(
  tx: ReturnType<typeof intakeDb>,
  receiveFileId: number,
  companyCode: string,
  settleMonth: string,
  errors: readonly CellError[],
): Promise<void> {
  await sql`
    INSERT INTO parse_error_log (raw_id, company_code, settle_month, error_type, error_field, error_value, error_message)
    SELECT r.raw_id, ${companyCode}, ${settleMonth}, 'INVALID_INPUT', e.field, e.value, e.message
    FROM unnest(${errors.map((e) => e.rowNumber)}::int[], ${errors.map((e) => e.field.slice(0, 100))}::text[],
                ${errors.map((e) => e.value.slice(0, 1000))}::text[], ${errors.map((e) => e.message.slice(0, 1000))}::text[])
         AS e(row_number, field, value, message)
    JOIN raw_commission_data r ON r.receive_file_id = ${receiveFileId} AND r.row_number = e.row_number`.execute(tx);
}

const CONTENT_TYPES: Readonly<Record<ReceiveFileKind, string>> = {
  XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  CSV: 'text/csv',
  FIXED: 'text/plain',
  JSON: 'application/json',
};

/**
 * Replacing a file: its raw rows go (their parse errors with them) and the carrier figures they put
 * on CALCULATED ledger rows are cleared; a row of it that reached a confirmed ledger row refuses the
 * replacement (B001).
 */
async function retireFile(tx: ReturnType<typeof intakeDb>, receiveFileId: number): Promise<void> {
  await tx
    .selectFrom('receive_file')
    .select('receive_file_id')
    .where('receive_file_id', '=', receiveFileId)
    .forUpdate()
    .execute();
  const { rows } = await sql<{ frozen: number }>`
    SELECT count(*)::int AS frozen FROM raw_commission_data r
    LEFT JOIN recruit_ledger rl ON r.mapped_table = 'recruit_ledger' AND rl.ledger_id = r.mapped_ledger_id
    LEFT JOIN maintain_ledger ml ON r.mapped_table = 'maintain_ledger' AND ml.ledger_id = r.mapped_ledger_id
    WHERE r.receive_file_id = ${receiveFileId}
      AND coalesce(rl.status, ml.status, 'CALCULATED') <> 'CALCULATED'`.execute(tx);
  if ((rows[0]?.frozen ?? 0) > 0) {
    throw new AppError(
      'ALREADY_CONFIRMED',
      `upload ${receiveFileId} cannot be replaced: ${rows[0]!.frozen} of its rows are in confirmed ledger rows`,
    );
  }
  for (const table of ['recruit_ledger', 'maintain_ledger'] as const) {
    await sql`
      UPDATE ${sql.table(table)} l
      SET reported_premium = NULL, reported_company_amount = NULL, raw_id = NULL,
          reconcile_status = 'PENDING', reconcile_diff = NULL, updated_at = now()
      FROM raw_commission_data r
      -- the ledger row through the raw row's pointer (primary key), still holding this raw row's figures
      WHERE r.receive_file_id = ${receiveFileId} AND r.mapped_table = ${table}
        AND l.ledger_id = r.mapped_ledger_id AND l.settle_month = r.settle_month
        AND l.raw_id = r.raw_id AND l.status = 'CALCULATED'`.execute(
      tx,
    );
  }
  await tx.deleteFrom('raw_commission_data').where('receive_file_id', '=', receiveFileId).execute();
  await tx
    .updateTable('receive_file')
    .set({ status: 'REPLACED', updated_at: new Date() })
    .where('receive_file_id', '=', receiveFileId)
    .execute();
}
