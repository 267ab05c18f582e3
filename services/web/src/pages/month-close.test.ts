import { describe, expect, it } from 'vitest';
import { closeSteps, type MonthFacts } from './month-close.js';

const base: MonthFacts = { expectedCarriers: 3, receivedCarriers: 3, openParseErrors: 0, runStatus: null, rows: 0, calculated: 0, hold: 0, confirmedOrPaid: 0 };
const state = (f: MonthFacts) => Object.fromEntries(closeSteps(f).map((s) => [s.key, s.reason ? `${s.state}:${s.reason}` : s.state]));

describe('the month-close cockpit says what can run and why not', () => {
  it('before the run, only receiving and running are open; the rest waits for the run', () => {
    expect(state({ ...base, receivedCarriers: 2 })).toEqual({
      received: 'ready', run: 'ready', review: 'waiting:close.needRun', confirm: 'waiting:close.needRun',
      payments: 'waiting:close.needRun', statements: 'waiting:close.needRun', periodClose: 'waiting:close.needRun', kpi: 'waiting:close.needRun',
    });
  });

  it('after the run with rows still calculated, payments wait for the confirmation', () => {
    expect(state({ ...base, runStatus: 'COMPLETED', rows: 60, calculated: 59, hold: 1 })).toEqual({
      received: 'done', run: 'done', review: 'ready', confirm: 'ready',
      payments: 'waiting:close.needConfirm', statements: 'waiting:close.needConfirm', periodClose: 'waiting:close.needConfirm', kpi: 'waiting:close.needConfirm',
    });
  });

  it('with every row confirmed (one held), payments, statements and the period close are open', () => {
    expect(state({ ...base, runStatus: 'COMPLETED', rows: 60, calculated: 0, hold: 1, confirmedOrPaid: 59 })).toEqual({
      received: 'done', run: 'done', review: 'ready', confirm: 'done', payments: 'ready', statements: 'ready', periodClose: 'ready', kpi: 'ready',
    });
  });
});
