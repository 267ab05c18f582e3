import { z } from 'zod';
import { invalid } from '@csp/service-kit';
import type { CellProblem } from '../parsing/cell-text.js';
import type { Db } from '@csp/db';
import { firstDayOfMonth } from '@csp/domain';
import { loadContractsByPolicy } from '../batch/contracts.js';
import { loadCompanyRules } from '../batch/mappings.js';
import { intakeDb } from '../db.js';
import type { SpooledFile } from '../parsing/spool.js';
import { openCarrierFile } from '../receive/carrier-records.js';
import type { LayoutProblems } from '../receive/layout-check.js';
import { loadCarrier } from '../receive/receive-upload.service.js';
import { LEDGER_OF, mapRecord, type DataType } from '../transform/record-mapper.js';
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

/** What POST /api/mapping/{companyCode}/test-parse answers: declared once, the route's response schema. */
export const testParseResult = z.object({
  companyCode: z.string(),
  settleMonth: z.string(),
  header: z.array(z.string()),
  layout: z.object({
    missing: z.array(z.string()),
    moved: z.array(z.object({ column: z.string(), expected: z.string(), found: z.string() })),
    renamed: z.array(z.object({ position: z.string(), expected: z.string(), found: z.string() })),
  }),
  rowsRead: z.number(),
  okCount: z.number(),
  errorCount: z.number(),
  errorTypes: z.record(z.string(), z.number()),
  rows: z.array(
    z.object({
      rowNumber: z.number(),
      dataType: z.string(),
      rawContent: z.record(z.string(), z.string()),
      status: z.enum(['OK', 'ERROR']),
      mapped: z
        .object({
          table: z.string(),
          policyNo: z.string(),
          contractId: z.number(),
          agentId: z.number(),
          commissionYear: z.number(),
          reportedPremium: z.string().nullable(),
          reportedCompanyAmount: z.string().nullable(),
          productCode: z.string(),
          insuranceType: z.string(),
          payMethod: z.string(),
        })
        .nullable(),
      error: z
        .object({
          errorType: z.string(),
          errorField: z.string().nullable(),
          errorValue: z.string().nullable(),
          message: z.string(),
        })
        .nullable(),
    }),
  ),
});

export type TestParseResult = z.infer<typeof testParseResult>;
export type TestParseRow = TestParseResult['rows'][number];

/** A row whose cell is not acceptable text: INVALID_INPUT on that column, as the upload records it. */
function cellError(problem: CellProblem) {
  return {
    ok: false as const,
    error: {
      errorType: 'INVALID_INPUT',
      errorField: problem.column,
      errorValue: problem.value,
      message: `${problem.column} ${problem.message}`,
    },
  };
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
    problem: CellProblem | undefined;
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
        problem: record.problem,
      });
      if (records.length >= input.limit) break;
    }
  } finally {
    await source.close();
  }
  if (records.length === 0) throw invalid('file', 'the file has no data rows');

  const rules = (await loadCompanyRules(intakeDb(db), [companyCode], monthStart)).get(companyCode)!;
  const mapped = records.map((r) => ({
    record: r,
    outcome: r.problem
      ? cellError(r.problem)
      : mapRecord(
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
