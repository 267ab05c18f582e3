import type { Db } from '@csp/db';
import { firstDayOfMonth } from '@csp/domain';
import { loadContractsByPolicy } from '../batch/contracts.js';
import { loadCompanyRules } from '../batch/mappings.js';
import { intakeDb } from '../db.js';
import type { SpooledFile } from '../parsing/spool.js';
import { openCarrierFile } from '../receive/carrier-records.js';
import type { LayoutProblems } from '../receive/layout-check.js';
import { loadCarrier } from '../receive/receive-upload.service.js';
import { LEDGER_OF, mapRecord, type DataType, type ParseError } from '../transform/record-mapper.js';
import { resolveLedgerRow } from '../transform/resolve-ledger-row.js';
import { activeMappings } from './mapping-lookup.js';

export const TEST_PARSE_MAX_ROWS = 1000;

/** A record's raw content shown as text per field (a JSON record's values as their JSON text). */
function contentOf(raw: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
    }
  } catch {
    // shown as delivered below
  }
  return { value: raw };
}

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
  const monthStart = firstDayOfMonth(settleMonth);
  const mappings = await activeMappings(intakeDb(db), companyCode, monthStart);
  const relevant = input.dataType
    ? mappings.filter((m) => m.targetTable === LEDGER_OF[input.dataType!])
    : mappings;
  const source = await openCarrierFile(input.file.path, {
    companyCode,
    profile,
    mappings: relevant,
    dataType: input.dataType,
  });
  const records: Array<{
    rowNumber: number;
    dataType: string;
    raw: string;
    content: Record<string, string>;
  }> = [];
  const header = source.header;
  const layout: LayoutProblems = source.layout;
  try {
    for await (const record of source.records()) {
      records.push({
        rowNumber: record.rowNumber,
        dataType: record.dataType,
        raw: record.content,
        content: contentOf(record.content),
      });
      if (records.length >= input.limit) break;
    }
  } finally {
    await source.close();
  }

  const rules = (await loadCompanyRules(intakeDb(db), [companyCode], monthStart)).get(companyCode)!;
  const mapped = records.map((r) => ({
    record: r,
    outcome: mapRecord(
      { dataType: r.dataType, rawContent: r.raw, settleMonth },
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
