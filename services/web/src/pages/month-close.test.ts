import { describe, expect, it } from 'vitest';
import { closeSteps, quarterOf, type MonthFacts } from './month-close.js';

const base: MonthFacts = {
  expectedCarriers: 3, receivedCarriers: 3, openParseErrors: 0, diffCarriers: 0,
  runStatus: null, rows: 0, calculated: 0, hold: 0, confirmedOrPaid: 0,
  pendingExceptions: 0, openDisputes: 0,
  payments: 0, taxed: 0, transferred: 0, skipped: 0, statements: 0,
  accountingClosed: false, taxReports: 0, taxReportsCurrent: false, periodClosed: false, closable: false,
};
const state = (f: MonthFacts) => Object.fromEntries(closeSteps(f).map((s) => [s.key, s.reason ? `${s.state}:${s.reason}` : s.state]));
const ran = { ...base, runStatus: 'COMPLETED', rows: 60 };
const confirmedWithHold = { ...ran, hold: 1, confirmedOrPaid: 59, closable: true };

describe('the month-close cockpit says what can run and why not', () => {
  it('before the run, only receiving and running are open; the rest waits for the run', () => {
    expect(state({ ...base, receivedCarriers: 2 })).toEqual({
      received: 'ready', run: 'ready', review: 'waiting:close.needRun', confirm: 'waiting:close.needRun',
      payments: 'waiting:close.needRun', statements: 'waiting:close.needRun', accounting: 'waiting:close.needRun',
      taxReports: 'waiting:close.needRun', periodClose: 'waiting:close.needRun', kpi: 'waiting:close.needRun',
    });
  });

  it('a received carrier with open parse errors is not done', () => {
    expect(state({ ...base, openParseErrors: 2 }).received).toBe('ready');
  });

  it('after the run with rows still calculated, payments wait for the confirmation', () => {
    expect(state({ ...ran, calculated: 59, hold: 1 })).toEqual({
      received: 'done', run: 'done', review: 'ready', confirm: 'ready',
      payments: 'waiting:close.needConfirm', statements: 'waiting:close.needConfirm', accounting: 'waiting:close.needConfirm',
      taxReports: 'waiting:close.needConfirm', periodClose: 'waiting:close.needConfirm', kpi: 'waiting:close.needConfirm',
    });
  });

  it('a DIFF carrier, a pending exception or an open dispute keeps the review open', () => {
    expect(state({ ...ran, calculated: 60, diffCarriers: 1 }).review).toBe('ready');
    expect(state({ ...ran, calculated: 60, pendingExceptions: 1 }).review).toBe('ready');
    expect(state({ ...ran, calculated: 60, openDisputes: 1 }).review).toBe('ready');
    expect(state({ ...ran, calculated: 60 }).review).toBe('done');
  });

  it('59 of 60 confirmed with one held is not done: the held row stays held, the rest of the close opens', () => {
    expect(state(confirmedWithHold)).toEqual({
      received: 'done', run: 'done', review: 'ready', confirm: 'partial', payments: 'ready', statements: 'ready',
      accounting: 'ready', taxReports: 'waiting:close.needPayments', periodClose: 'ready', kpi: 'ready',
    });
    expect(state({ ...ran, confirmedOrPaid: 60, closable: true }).confirm).toBe('done');
  });

  it('payments are done once every payment is in a transfer file and no agent was skipped', () => {
    const paying = { ...confirmedWithHold, payments: 58, taxed: 58 };
    expect(state({ ...paying, transferred: 0 }).payments).toBe('ready');
    expect(state({ ...paying, transferred: 58, skipped: 1 }).payments).toBe('ready');
    expect(state({ ...paying, transferred: 58 }).payments).toBe('done');
    expect(state(paying).taxReports).toBe('ready');
    // The quarter's reports made before this month's payments (an earlier month of the quarter) are not this month's.
    expect(state({ ...paying, taxReports: 58 }).taxReports).toBe('ready');
    expect(state({ ...paying, taxReports: 58, taxReportsCurrent: true }).taxReports).toBe('done');
  });

  it('statements, the accounting close and the period close are done when the month has them', () => {
    const done = { ...confirmedWithHold, statements: 59, accountingClosed: true, periodClosed: true };
    expect(state(done)).toMatchObject({ statements: 'done', accounting: 'done', periodClose: 'done' });
    expect(state({ ...confirmedWithHold, closable: false }).periodClose).toBe('waiting:close.needFixes');
  });

  it('names the quarter of a month as the tax reports do', () => {
    expect([quarterOf('202501'), quarterOf('202503'), quarterOf('202505'), quarterOf('202512')]).toEqual(['2025-Q1', '2025-Q1', '2025-Q2', '2025-Q4']);
  });
});
