/** Where a month stands, from the numbers the existing APIs give (receive status, runs, summaries, lists). */
export interface MonthFacts {
  expectedCarriers: number;
  receivedCarriers: number;
  openParseErrors: number;
  /** Carriers whose reported amounts differ from the system's (reconciliation DIFF). */
  diffCarriers: number;
  runStatus: string | null;
  rows: number;
  calculated: number;
  hold: number;
  confirmedOrPaid: number;
  /** Exception ledger rows of the month waiting for an approval. */
  pendingExceptions: number;
  /** Disputes of the month not decided yet (open or in review). */
  openDisputes: number;
  /** Payments of the month; those taxed; those written to a transfer file. */
  payments: number;
  taxed: number;
  transferred: number;
  /** Confirmed settlements with a positive gross that generate left without a payment (no bank account). */
  skipped: number;
  statements: number;
  accountingClosed: boolean;
  /** Withholding report rows of the month's quarter. */
  taxReports: number;
  /** The quarter's reports were recomputed after this month's payments were taxed (a quarter spans three months). */
  taxReportsCurrent: boolean;
  periodClosed: boolean;
  /** The period close can run: every row confirmed, held or paid and no run in progress. */
  closable: boolean;
}

/** `partial`: as far as it can go, with rows left aside on purpose (held rows stay held). */
export type StepState = 'done' | 'partial' | 'ready' | 'waiting';
export type StepKey =
  | 'received'
  | 'run'
  | 'review'
  | 'confirm'
  | 'payments'
  | 'statements'
  | 'accounting'
  | 'taxReports'
  | 'periodClose'
  | 'kpi';
export type WaitReason = 'close.needRun' | 'close.needConfirm' | 'close.needPayments' | 'close.needFixes';
export interface CloseStep {
  key: StepKey;
  state: StepState;
  /** Why the step cannot run yet (a catalog key), when it is waiting. */
  reason?: WaitReason;
}

/** The first rows of a month count as settled once the run completed with rows. */
const ran = (f: MonthFacts) => f.runStatus === 'COMPLETED' && f.rows > 0;
/** Nothing left to confirm: every row confirmed, paid or held. */
export const confirmed = (f: MonthFacts) => ran(f) && f.calculated === 0 && f.confirmedOrPaid + f.hold === f.rows;
/** Open review items: DIFF carriers, pending exceptions, holds, undecided disputes. */
export const reviewItems = (f: MonthFacts) => f.diffCarriers + f.pendingExceptions + f.hold + f.openDisputes;

/** The close of a month in order; each step is waiting (with the reason) until the one before allows it. */
export function closeSteps(f: MonthFacts): CloseStep[] {
  const received = f.expectedCarriers > 0 && f.receivedCarriers >= f.expectedCarriers && f.openParseErrors === 0;
  const didRun = ran(f);
  const isConfirmed = confirmed(f);
  const beforeConfirm = (key: StepKey): CloseStep => ({ key, state: 'waiting', reason: didRun ? 'close.needConfirm' : 'close.needRun' });
  const paid = f.payments > 0 && f.transferred === f.payments && f.skipped === 0;
  return [
    { key: 'received', state: received ? 'done' : 'ready' },
    { key: 'run', state: didRun ? 'done' : 'ready' },
    didRun ? { key: 'review', state: reviewItems(f) === 0 ? 'done' : 'ready' } : { key: 'review', state: 'waiting', reason: 'close.needRun' },
    didRun
      ? { key: 'confirm', state: !isConfirmed ? 'ready' : f.hold > 0 ? 'partial' : 'done' }
      : { key: 'confirm', state: 'waiting', reason: 'close.needRun' },
    isConfirmed ? { key: 'payments', state: paid ? 'done' : 'ready' } : beforeConfirm('payments'),
    isConfirmed ? { key: 'statements', state: f.statements > 0 ? 'done' : 'ready' } : beforeConfirm('statements'),
    isConfirmed ? { key: 'accounting', state: f.accountingClosed ? 'done' : 'ready' } : beforeConfirm('accounting'),
    !isConfirmed
      ? beforeConfirm('taxReports')
      : f.payments === 0
        ? { key: 'taxReports', state: 'waiting', reason: 'close.needPayments' }
        : { key: 'taxReports', state: f.taxReports > 0 && f.taxReportsCurrent ? 'done' : 'ready' },
    !isConfirmed
      ? beforeConfirm('periodClose')
      : f.periodClosed
        ? { key: 'periodClose', state: 'done' }
        : f.closable
          ? { key: 'periodClose', state: 'ready' }
          : { key: 'periodClose', state: 'waiting', reason: 'close.needFixes' },
    isConfirmed ? { key: 'kpi', state: 'ready' } : beforeConfirm('kpi'),
  ];
}

/** A month's quarter as the tax reports name it (`202505` -> `2025-Q2`). */
export function quarterOf(month: string): string {
  return `${month.slice(0, 4)}-Q${Math.ceil(Number(month.slice(4)) / 3)}`;
}
