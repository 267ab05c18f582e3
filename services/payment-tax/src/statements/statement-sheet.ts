import { moneyColumn, writeSpreadsheet, type SpreadsheetColumn } from '@csp/service-kit';
import type { FileStore, StoredFile } from '../common/file-store.js';
import type { StatementData, StatementFigures, StatementLine } from './statements.repository.js';

const TITLES = { MONTHLY: 'Commission statement', ANNUAL: 'Annual commission statement', PROOF: 'Income proof' } as const;

export const STATEMENT_COLUMNS: Array<SpreadsheetColumn<StatementLine>> = [
  { header: 'Section', key: 'section', width: 18 },
  { header: 'Item', key: 'item', width: 34 },
  { header: 'Reference', key: 'reference', width: 46 },
  moneyColumn<StatementLine>('Amount', 'amount'),
];

const isZero = (amount: string) => /^-?0*(\.0*)?$/.test(amount);
/** The amount with its sign turned (a decimal string; 0 stays unsigned). */
const negated = (amount: string) => (isZero(amount) ? amount.replace(/^-/, '') : amount.startsWith('-') ? amount.slice(1) : `-${amount}`);

export const PART_SECTION = 'Part of gross';

/**
 * Each part of gross as a row (DECISIONS "Settlement lifecycle"), signed as it counts: the rows add up
 * to the Gross row to the cent. Payments without a settlement row have no parts; their amount is a row
 * of its own when there are any.
 */
export function grossPartRows({ parts, unsettled }: Pick<StatementFigures, 'parts' | 'unsettled'>): StatementLine[] {
  const part = (item: string, amount: string, reference = ''): StatementLine => ({ section: PART_SECTION, item, reference, amount });
  const rows = [
    part('Recruit', parts.recruit_total),
    part('Maintain', parts.maintain_total),
    part('Override', parts.override_total),
    part('Other commission', parts.other_total, 'collection, renewal, reinstatement, persistency, appointment, incentive'),
    part('Correction', parts.correction_total, 'approved corrections booked into the month'),
    part('Exception plus', parts.exception_plus),
    part('Exception minus', negated(parts.exception_minus), 'deducted'),
    part('Chargeback', negated(parts.chargeback_total), 'deducted'),
  ];
  if (!isZero(unsettled)) rows.push(part('Not from a settlement row', unsettled, 'payments without a settlement row'));
  return rows;
}

/**
 * The rows of a statement: who and when, the lines that make up gross (signed as they count), each part
 * of gross, then gross, taxes, deductions and net exactly as the payments carry them. Money cells are numbers.
 */
export function statementRows(data: StatementData, issuedOn: string): StatementLine[] {
  const { scope, figures: f } = data;
  const text = (section: string, item: string, reference = ''): StatementLine => ({ section, item, reference, amount: null });
  const money = (section: string, amount: string, item = '', reference = ''): StatementLine => ({ section, item, reference, amount });
  const period = scope.statementType === 'ANNUAL' ? `${scope.settleMonth.slice(0, 4)}01-${scope.settleMonth}` : scope.settleMonth;
  const rows: StatementLine[] = [
    text('Statement', TITLES[scope.statementType], scope.statementType),
    text('Agent', f.agentName, `agent ${f.agentId}`),
    text('Settle month', period),
    text('Issued on', issuedOn),
    text('', ''),
    ...data.lines,
  ];
  if (!isZero(f.adjustment)) rows.push(money('Adjustment', f.adjustment, 'Corrections and other commission', 'gross minus the lines above'));
  rows.push(
    text('', ''),
    ...grossPartRows(f),
    text('', ''),
    money('Gross', f.gross, `${f.paymentCount} payment(s)`),
    money('Income tax', f.incomeTax, 'withheld'),
    money('Local income tax', f.localTax, 'withheld'),
    money('VAT', f.vat, 'added'),
    ...data.deductions,
    money('Deductions', f.deduction, 'total deducted'),
    money('Net', f.net, 'paid'),
  );
  return rows;
}

/** Writes the statement spreadsheet with the kit's writer (one sheet, money as number cells). */
export function writeStatementFile(store: FileStore, fileName: string, data: StatementData, issuedOn: string): Promise<StoredFile> {
  return store.write(fileName, (out) =>
    writeSpreadsheet(out, { sheetName: `Statement ${data.scope.settleMonth}`, columns: STATEMENT_COLUMNS, rows: statementRows(data, issuedOn) }),
  );
}
