import type { Db } from '@csp/db';
import { firstDayOfMonth } from '@csp/domain';
import { invalid } from '@csp/service-kit';
import { loadContractsByPolicy } from '../batch/contracts.js';
import { loadCompanyRules } from '../batch/mappings.js';
import { intakeDb } from '../db.js';
import { normaliseEncoding } from '../parsing/csv-reader.js';
import type { SpooledFile } from '../parsing/spool.js';
import { isBlankRow, openTabular, UnreadableFileError } from '../parsing/tabular.js';
import { checkLayout, type LayoutProblems } from '../receive/layout-check.js';
import {
  DATA_TYPE_COLUMN,
  headerlessKeys,
  loadCarrier,
  rawContentOf,
  readHeader,
} from '../receive/receive-upload.service.js';
import { LEDGER_OF, mapRecord, type DataType, type ParseError } from '../transform/record-mapper.js';
import { resolveLedgerRow } from '../transform/resolve-ledger-row.js';
import { activeMappings } from './mapping-lookup.js';

export const TEST_PARSE_MAX_ROWS = 1000;

export interface TestParseRow {
  rowNumber: number;
  dataType: string;
  rawContent: Record<string, string>;
  status: 'OK' | 'ERROR';
  mapped: {
    table: string;
    policyNo: string;
    contractId: number;
    agentId: number;
    commissionYear: number;
    reportedPremium: string | null;
    reportedCompanyAmount: string | null;
    productCode: string;
    insuranceType: string;
    payMethod: string;
  } | null;
  error: ParseError | null;
}

export interface TestParseResult {
  companyCode: string;
  settleMonth: string;
  header: string[];
  layout: LayoutProblems;
  rowsRead: number;
  okCount: number;
  errorCount: number;
  errorTypes: Record<string, number>;
  rows: TestParseRow[];
}

/**
 * Runs a sample carrier file through the carrier's mappings for a month exactly as upload + step 2
 * would (layout check, raw content, transform rules, contract match) and reports the mapped rows
 * and the errors. Nothing is stored.
 */
export async function testParse(
  db: Db,
  input: {
    companyCode: string;
    settleMonth: string;
    dataType: DataType | undefined;
    file: SpooledFile;
    limit: number;
  },
): Promise<TestParseResult> {
  const { companyCode, settleMonth } = input;
  const profile = await loadCarrier(db, companyCode);
  let source;
  try {
    source = await openTabular(input.file.path, {
      encoding: normaliseEncoding(profile.file_encoding),
      delimiter: profile.delimiter,
      sheetName: profile.sheet_name,
    });
  } catch (err) {
    if (err instanceof UnreadableFileError) throw invalid('file', err.message);
    throw err;
  }
  const monthStart = firstDayOfMonth(settleMonth);
  const mappings = await activeMappings(intakeDb(db), companyCode, monthStart);
  const rows = source.rows();
  const records: Array<{ rowNumber: number; dataType: string; content: Record<string, string> }> = [];
  let header: string[] = [];
  let layout: LayoutProblems = { missing: [], moved: [], renamed: [] };
  try {
    const read = await readHeader(rows, profile);
    let keys: string[];
    if (read.header) {
      header = read.header;
      const relevant = input.dataType
        ? mappings.filter((m) => m.targetTable === LEDGER_OF[input.dataType!])
        : mappings;
      layout = checkLayout(read.header, relevant);
      keys = read.header;
    } else {
      keys = headerlessKeys(companyCode, mappings, read.first.done ? 0 : read.first.value.cells.length);
      header = keys;
    }
    const typeColumn = keys.indexOf(DATA_TYPE_COLUMN);
    if (!input.dataType && typeColumn < 0)
      throw invalid('dataType', `is required (the file has no ${DATA_TYPE_COLUMN} column)`);
    let next = read.first;
    while (!next.done && records.length < input.limit) {
      const row = next.value;
      if (row.rowNumber >= profile.data_start_row && !isBlankRow(row.cells)) {
        records.push({
          rowNumber: row.rowNumber,
          dataType: input.dataType ?? (row.cells[typeColumn] ?? '').trim(),
          content: rawContentOf(keys, row.cells),
        });
      }
      next = await rows.next();
    }
  } finally {
    await rows.return(undefined);
  }

  const rules = (await loadCompanyRules(intakeDb(db), [companyCode], monthStart)).get(companyCode)!;
  const mapped = records.map((r) => ({
    record: r,
    outcome: mapRecord(
      { dataType: r.dataType, rawContent: JSON.stringify(r.content), settleMonth },
      rules.mappingsOf,
      rules.context,
    ),
  }));
  const contracts = await loadContractsByPolicy(
    db,
    mapped.flatMap((m) => (m.outcome.ok ? [m.outcome.record.policyNo] : [])),
  );
  const result: TestParseRow[] = mapped.map(({ record, outcome }) => {
    const base = { rowNumber: record.rowNumber, dataType: record.dataType, rawContent: record.content };
    if (!outcome.ok) return { ...base, status: 'ERROR', mapped: null, error: outcome.error };
    const resolved = resolveLedgerRow(
      outcome.record,
      contracts.get(outcome.record.policyNo),
      companyCode,
      settleMonth,
    );
    if (!resolved.ok) return { ...base, status: 'ERROR', mapped: null, error: resolved.error };
    const w = resolved.row;
    return {
      ...base,
      status: 'OK',
      error: null,
      mapped: {
        table: w.table,
        policyNo: w.policyNo,
        contractId: w.contractId,
        agentId: w.agentId,
        commissionYear: w.commissionYear,
        reportedPremium: w.reportedPremium,
        reportedCompanyAmount: w.reportedCompanyAmount,
        productCode: w.productCode,
        insuranceType: w.insuranceType,
        payMethod: w.payMethod,
      },
    };
  });
  const errorTypes: Record<string, number> = {};
  for (const r of result)
    if (r.error) errorTypes[r.error.errorType] = (errorTypes[r.error.errorType] ?? 0) + 1;
  return {
    companyCode,
    settleMonth,
    header,
    layout,
    rowsRead: result.length,
    okCount: result.filter((r) => r.status === 'OK').length,
    errorCount: result.filter((r) => r.status === 'ERROR').length,
    errorTypes,
    rows: result,
  };
}
