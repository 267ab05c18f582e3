/** Where a month stands, from the numbers the existing APIs give (receive status, last run, settle summary). */
export interface MonthFacts {
  expectedCarriers: number;
  receivedCarriers: number;
  openParseErrors: number;
  runStatus: string | null;
  rows: number;
  calculated: number;
  hold: number;
  confirmedOrPaid: number;
}

export type StepState = 'done' | 'ready' | 'waiting';
export interface CloseStep {
  key: 'received' | 'run' | 'review' | 'confirm' | 'payments' | 'statements' | 'periodClose' | 'kpi';
  state: StepState;
  /** Why the step cannot run yet (a catalog key), when it is waiting. */
  reason?: 'close.needFiles' | 'close.needRun' | 'close.needConfirm';
}

/** The close of a month in order; each step is waiting (with the reason) until the one before allows it. */
export function closeSteps(f: MonthFacts): CloseStep[] {
  const received = f.expectedCarriers > 0 && f.receivedCarriers >= f.expectedCarriers && f.openParseErrors === 0;
  const ran = f.runStatus === 'COMPLETED' && f.rows > 0;
  const confirmed = ran && f.calculated === 0 && f.confirmedOrPaid + f.hold === f.rows;
  return [
    { key: 'received', state: received ? 'done' : 'ready' },
    { key: 'run', state: ran ? 'done' : 'ready' },
    ran ? { key: 'review', state: f.hold === 0 ? 'done' : 'ready' } : { key: 'review', state: 'waiting', reason: 'close.needRun' },
    ran ? { key: 'confirm', state: confirmed ? 'done' : 'ready' } : { key: 'confirm', state: 'waiting', reason: 'close.needRun' },
    confirmed ? { key: 'payments', state: 'ready' } : { key: 'payments', state: 'waiting', reason: ran ? 'close.needConfirm' : 'close.needRun' },
    confirmed ? { key: 'statements', state: 'ready' } : { key: 'statements', state: 'waiting', reason: ran ? 'close.needConfirm' : 'close.needRun' },
    confirmed ? { key: 'periodClose', state: 'ready' } : { key: 'periodClose', state: 'waiting', reason: ran ? 'close.needConfirm' : 'close.needRun' },
    confirmed ? { key: 'kpi', state: 'ready' } : { key: 'kpi', state: 'waiting', reason: ran ? 'close.needConfirm' : 'close.needRun' },
  ];
}
