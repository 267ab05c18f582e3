import { moneyColumn, writeSpreadsheet, type SpreadsheetColumn } from '@csp/service-kit';
import type { FileStore, StoredFile } from '../common/file-store.js';
import type { StatementData, StatementFigures, StatementLine, StatementTypeValue } from './statements.repository.js';
import { fill, monthText, statementWord, type StatementWordKey, type StatementWords } from './statement-words.js';

const TITLES: Record<StatementTypeValue, StatementWordKey> = { MONTHLY: 'titleMonthly', ANNUAL: 'titleAnnual', PROOF: 'titleProof' };

/** The columns, headed in the statement's language (the writer's `lang`). */
export const STATEMENT_COLUMNS: Array<SpreadsheetColumn<StatementLine>> = [
  { header: statementWord('colSection'), key: 'section', width: 18 },
  { header: statementWord('colItem'), key: 'item', width: 34 },
  { header: statementWord('colReference'), key: 'reference', width: 46 },
  moneyColumn<StatementLine>(statementWord('colAmount'), 'amount'),
];

const isZero = (amount: string) => /^-?0*(\.0*)?$/.test(amount);
/** The amount with its sign turned (a decimal string; 0 stays unsigned). */
const negated = (amount: string) => (isZero(amount) ? amount.replace(/^-/, '') : amount.startsWith('-') ? amount.slice(1) : `-${amount}`);

/**
 * Each part of gross as a row (DECISIONS "Settlement lifecycle"), signed as it counts: the rows add up
 * to the Gross row to the cent. Payments without a settlement row have no parts; their amount is a row
 * of its own when there are any.
 */
export function grossPartRows({ parts, unsettled }: Pick<StatementFigures, 'parts' | 'unsettled'>, w: StatementWords): StatementLine[] {
  const part = (item: string, amount: string, reference = ''): StatementLine => ({ section: w.partSection, item, reference, amount });
  const rows = [
    part(w.recruit, parts.recruit_total),
    part(w.maintain, parts.maintain_total),
    part(w.override, parts.override_total),
    part(w.partOther, parts.other_total, w.partOtherReference),
    part(w.partCorrection, parts.correction_total, w.partCorrectionReference),
    part(w.partExceptionPlus, parts.exception_plus),
    part(w.partExceptionMinus, negated(parts.exception_minus), w.deducted),
    part(w.chargeback, negated(parts.chargeback_total), w.deducted),
  ];
  if (!isZero(unsettled)) rows.push(part(w.partUnsettled, unsettled, w.partUnsettledReference));
  return rows;
}

/**
 * The rows of a statement in its language: who and when, the lines that make up gross (signed as they
 * count), each part of gross, then gross, taxes, deductions and net exactly as the payments carry them.
 */
export function statementRows(data: StatementData, issuedOn: string): StatementLine[] {
  const { scope, figures: f, words: w } = data;
  const text = (section: string, item: string, reference = ''): StatementLine => ({ section, item, reference, amount: null });
  const money = (section: string, amount: string, item = '', reference = ''): StatementLine => ({ section, item, reference, amount });
  const period =
    scope.statementType === 'ANNUAL' ? fill(w.period, monthText(`${scope.settleMonth.slice(0, 4)}01`), monthText(scope.settleMonth)) : monthText(scope.settleMonth);
  const rows: StatementLine[] = [
    text(w.statement, w[TITLES[scope.statementType]]),
    text(w.agent, f.agentName, fill(w.agentNo, f.agentId)),
    text(w.settleMonth, period),
    text(w.issuedOn, issuedOn),
    text('', ''),
    ...data.lines,
  ];
  if (!isZero(f.adjustment)) rows.push(money(w.adjustment, f.adjustment, w.adjustmentItem, w.adjustmentReference));
  rows.push(
    text('', ''),
    ...grossPartRows(f, w),
    text('', ''),
    money(w.gross, f.gross, fill(w.paymentCount, f.paymentCount)),
    money(w.incomeTax, f.incomeTax, w.withheld),
    money(w.localTax, f.localTax, w.withheld),
    money(w.vat, f.vat, w.added),
    ...data.deductions,
    money(w.deductions, f.deduction, w.totalDeducted),
    money(w.net, f.net, w.paid),
  );
  return rows;
}

/** Writes the statement spreadsheet in its language with the kit's writer (one sheet, money as number cells). */
export function writeStatementFile(store: FileStore, fileName: string, data: StatementData, issuedOn: string): Promise<StoredFile> {
  return store.write(fileName, (out) =>
    writeSpreadsheet(out, {
      sheetName: fill(data.words.sheetName, monthText(data.scope.settleMonth)),
      columns: STATEMENT_COLUMNS,
      rows: statementRows(data, issuedOn),
      lang: data.words.lang,
    }),
  );
}
