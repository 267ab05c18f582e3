import { describe, expect, it } from 'vitest';
import { parseStepPayload } from './payload.js';
import {
  STEP_CATALOG,
  STEP_NAMES,
  nextStep,
  parseStepList,
  resolveSettings,
  runsInMonth,
  stepsOwnedBy,
} from './steps.js';
import { rangeChunks } from './define-step.js';

const KEY = '6f1c2a4e-8d3b-4f6a-9c2e-1b7d5e3a9f01';

describe('step catalog', () => {
  it('lists the twelve steps of spec 1.3 and calcOtherCommission in order with their queues', () => {
    expect(STEP_NAMES.map((s) => [STEP_CATALOG[s].seq, STEP_CATALOG[s].queueName])).toEqual([
      [1, 'settlement.receiveData'],
      [2, 'settlement.transformData'],
      [3, 'settlement.reconcile'],
      [4, 'settlement.calcRecruit'],
      [5, 'settlement.calcMaintain'],
      [6, 'settlement.calcOtherCommission'],
      [7, 'settlement.chargebackException'],
      [8, 'settlement.calcOverride'],
      [9, 'settlement.aggregate'],
      [10, 'settlement.accountingEntryGenerate'],
      [11, 'settlement.yearEndIncomeAggregate'],
      [12, 'settlement.withholdingTaxQuarterly'],
      [13, 'settlement.vatReportQuarterly'],
    ]);
    expect(nextStep('receiveData')).toBe('transformData');
    expect(nextStep('vatReportQuarterly')).toBeUndefined();
  });

  it('assigns each step to its owning service', () => {
    expect(stepsOwnedBy('intake')).toEqual(['receiveData', 'transformData', 'reconcile']);
    expect(stepsOwnedBy('ledger-settlement')).toEqual([
      'calcRecruit',
      'calcMaintain',
      'calcOtherCommission',
      'chargebackException',
      'calcOverride',
      'aggregate',
    ]);
    expect(stepsOwnedBy('payment-tax')).toEqual([
      'accountingEntryGenerate',
      'yearEndIncomeAggregate',
      'withholdingTaxQuarterly',
      'vatReportQuarterly',
    ]);
  });

  it('runs the year-end step only in December and the quarterly steps only in 03, 06, 09 and 12', () => {
    const months = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];
    const runs = (step: (typeof STEP_NAMES)[number]) => months.filter((m) => runsInMonth(step, `2024${m}`));
    expect(runs('yearEndIncomeAggregate')).toEqual(['12']);
    expect(runs('withholdingTaxQuarterly')).toEqual(['03', '06', '09', '12']);
    expect(runs('vatReportQuarterly')).toEqual(['03', '06', '09', '12']);
    expect(runs('aggregate')).toEqual(months);
    expect(runs('calcOtherCommission')).toEqual(months);
    expect(() => runsInMonth('aggregate', '202413')).toThrow(RangeError);
  });

  it('parses BATCH_STEPS and refuses unknown step names', () => {
    expect(parseStepList(undefined)).toBeUndefined();
    expect(parseStepList(' ')).toBeUndefined();
    expect(parseStepList('calcMaintain, aggregate,calcMaintain')).toEqual(['calcMaintain', 'aggregate']);
    expect(() => parseStepList('calcMaintain,agregate')).toThrow('Unknown batch step(s): agregate');
  });

  it('resolves retry settings from the catalog with overrides', () => {
    expect(resolveSettings('aggregate')).toEqual({ attempts: 3, backoffMs: 5000, timeoutMs: 1_800_000 });
    expect(resolveSettings('aggregate', { all: { backoffMs: 10 }, aggregate: { attempts: 5 } })).toEqual({
      attempts: 5,
      backoffMs: 10,
      timeoutMs: 1_800_000,
    });
  });
});

describe('step payload', () => {
  it('accepts ids, the month, an optional company, request id and chunk', () => {
    const payload = {
      runId: 5,
      runKey: KEY,
      attempt: 1,
      settleMonth: '202412',
      companyCode: 'INS01',
      requestId: 'r-1',
      chunk: { chunkNo: 1, from: 1, to: 2000 },
    };
    expect(parseStepPayload(payload)).toEqual(payload);
  });

  it('refuses unknown keys, bad months and inverted chunk ranges', () => {
    expect(() => parseStepPayload({ runId: 5, runKey: KEY, attempt: 1, settleMonth: '202412', residentNo: 'x' })).toThrow(
      'Invalid batch step payload',
    );
    expect(() => parseStepPayload({ runId: 5, runKey: KEY, attempt: 1, settleMonth: '202400' })).toThrow('settleMonth');
    expect(() =>
      parseStepPayload({
        runId: 5,
        runKey: KEY,
        attempt: 1,
        settleMonth: '202412',
        chunk: { chunkNo: 1, from: 9, to: 3 },
      }),
    ).toThrow('chunk.from must be <= chunk.to');
  });
});

describe('rangeChunks', () => {
  it('splits an id range into numbered inclusive chunks', () => {
    expect(rangeChunks(1, 4500, 2000)).toEqual([
      { chunkNo: 1, from: 1, to: 2000 },
      { chunkNo: 2, from: 2001, to: 4000 },
      { chunkNo: 3, from: 4001, to: 4500 },
    ]);
    expect(rangeChunks(10, 9, 100)).toEqual([]);
  });
});
