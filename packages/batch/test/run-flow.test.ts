import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  defineStep,
  launchRun,
  restartRun,
  STEP_NAMES,
  UnrecoverableError,
  type StepName,
} from '../src/index.js';
import { createToyTable, toyRows, toyStep, toySteps, type CallCounter } from './fixtures/toy-steps.js';
import { createHarness, waitForRunEnd, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
  await createToyTable(h.db);
});

afterEach(async () => {
  await h.stopWorkers();
});

afterAll(async () => {
  await h?.close();
});

describe('a settlement run', () => {
  it('runs all thirteen steps in order in December and records one COMPLETED row per step', async () => {
    const calls: CallCounter = new Map();
    await h.startWorkers({ steps: toySteps(calls) });

    const run = await launchRun(h.db, h.queues, {
      settleMonth: '202412',
      requestedBy: 7,
      requestId: 'req-1',
    });
    expect(run.status).toBe('REQUESTED');
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);

    expect(done.status).toBe('COMPLETED');
    expect(done.runAttempt).toBe(1);
    expect(done.requestedBy).toBe(7);
    expect([done.totalCount, done.successCount, done.skippedCount, done.errorCount]).toEqual([13, 13, 0, 0]);
    expect(done.startedAt).toBeInstanceOf(Date);
    expect(done.endedAt!.getTime()).toBeGreaterThanOrEqual(done.startedAt!.getTime());
    expect(done.durationMs).toBeGreaterThanOrEqual(0);

    expect(steps.map((s) => s.stepName)).toEqual([...STEP_NAMES]);
    expect(steps.map((s) => s.stepSeq)).toEqual(STEP_NAMES.map((_, i) => i + 1));
    for (const s of steps) {
      expect(s).toMatchObject({
        status: 'COMPLETED',
        skipped: false,
        totalCount: 1,
        successCount: 1,
        errorCount: 0,
      });
      expect(s.errorMessage).toBeNull();
      expect(s.endedAt).toBeInstanceOf(Date);
    }
    // Each step ran after the previous one finished.
    for (let i = 1; i < steps.length; i++) {
      expect(steps[i]!.startedAt!.getTime()).toBeGreaterThanOrEqual(steps[i - 1]!.endedAt!.getTime());
    }
    expect(await toyRows(h.db, run.jobLogId)).toEqual([...STEP_NAMES]);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
  });

  it('skips the year-end and both quarterly steps in January with skipped COMPLETED rows', async () => {
    const calls: CallCounter = new Map();
    await h.startWorkers({ steps: toySteps(calls) });

    const run = await launchRun(h.db, h.queues, { settleMonth: '202401' });
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);

    expect(done.status).toBe('COMPLETED');
    expect([done.totalCount, done.successCount, done.skippedCount]).toEqual([13, 10, 3]);
    expect(
      steps.filter((s) => s.skipped).map((s) => [s.stepName, s.status, s.skipReason, s.totalCount]),
    ).toEqual([
      ['yearEndIncomeAggregate', 'COMPLETED', 'skipped: not the last month of the year', 0],
      ['withholdingTaxQuarterly', 'COMPLETED', 'skipped: not the last month of a quarter', 0],
      ['vatReportQuarterly', 'COMPLETED', 'skipped: not the last month of a quarter', 0],
    ]);
    expect(await toyRows(h.db, run.jobLogId)).toEqual(STEP_NAMES.slice(0, 10));
    expect(calls.has('yearEndIncomeAggregate')).toBe(false);
  });

  it('skips only the year-end step in June, the last month of a quarter', async () => {
    await h.startWorkers({ steps: toySteps(new Map()) });

    const run = await launchRun(h.db, h.queues, { settleMonth: '202406', companyCode: 'INS01' });
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);

    expect(done.status).toBe('COMPLETED');
    expect(done.companyCode).toBe('INS01');
    expect(steps.filter((s) => s.skipped).map((s) => s.stepName)).toEqual(['yearEndIncomeAggregate']);
    expect(await toyRows(h.db, run.jobLogId)).toEqual(
      STEP_NAMES.filter((s) => s !== 'yearEndIncomeAggregate'),
    );
  });

  it('completes a step that throws a transient error twice and succeeds on its third attempt', async () => {
    const calls: CallCounter = new Map();
    let attempts = 0;
    const flaky = defineStep({
      name: 'calcRecruit',
      run: async (ctx) => {
        attempts++;
        if (attempts <= 2) throw new Error(`connection reset (attempt ${attempts})`);
        return toyStep('calcRecruit', calls).run(ctx);
      },
    });
    await h.startWorkers({ steps: toySteps(calls, { calcRecruit: flaky }) });

    const run = await launchRun(h.db, h.queues, { settleMonth: '202403' });
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);

    expect(done.status).toBe('COMPLETED');
    expect(attempts).toBe(3);
    const recruit = steps.find((s) => s.stepName === 'calcRecruit')!;
    expect(recruit).toMatchObject({ status: 'COMPLETED', totalCount: 1, errorMessage: null });
    expect(calls.get('calcMaintain')).toBe(1);
  });
});

describe('a failing step', () => {
  let failedRunId: number;
  let aggregateCalls = 0;
  let aggregateBroken = true;
  const calls: CallCounter = new Map();

  const aggregate = defineStep({
    name: 'aggregate',
    run: async (ctx) => {
      aggregateCalls++;
      if (aggregateBroken) throw new Error('settle_master is locked by period close');
      return toyStep('aggregate', calls).run(ctx);
    },
  });

  it('fails the run with its error message after the last attempt', async () => {
    await h.startWorkers({ steps: toySteps(calls, { aggregate }) });

    const run = await launchRun(h.db, h.queues, { settleMonth: '202405' });
    failedRunId = run.jobLogId;
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);

    expect(done.status).toBe('FAILED');
    expect(done.errorMessage).toBe('settle_master is locked by period close');
    expect(done.endedAt).toBeInstanceOf(Date);
    expect([done.totalCount, done.successCount, done.errorCount]).toEqual([9, 8, 1]);
    expect(aggregateCalls).toBe(3);
    expect(steps.map((s) => [s.stepName, s.status])).toEqual([
      ...STEP_NAMES.slice(0, 8).map((s) => [s, 'COMPLETED']),
      ['aggregate', 'FAILED'],
    ]);
    expect(steps[8]!.errorMessage).toBe('settle_master is locked by period close');
  });

  it('restarts from the failed step, reusing its row, and completes without repeating earlier steps', async () => {
    const before = (await waitForRunEnd(h.db, failedRunId)).steps.find((s) => s.stepName === 'aggregate')!;
    aggregateBroken = false;
    const callsBefore = new Map(calls);
    await h.startWorkers({ steps: toySteps(calls, { aggregate }) });

    const restarted = await restartRun(h.db, h.queues, failedRunId, { requestId: 'req-restart' });
    expect(restarted).toMatchObject({ status: 'REQUESTED', runAttempt: 2, errorMessage: null });
    const { run: done, steps } = await waitForRunEnd(h.db, failedRunId);

    expect(done.status).toBe('COMPLETED');
    expect(done.runAttempt).toBe(2);
    expect(done.errorMessage).toBeNull();
    expect([done.totalCount, done.successCount, done.skippedCount, done.errorCount]).toEqual([13, 10, 3, 0]);
    const after = steps.find((s) => s.stepName === 'aggregate')!;
    expect(after.jobLogId).toBe(before.jobLogId);
    expect(after).toMatchObject({ status: 'COMPLETED', errorMessage: null, totalCount: 1 });
    // Steps 1-8 were not run again; steps 10-13 ran once.
    for (const step of STEP_NAMES.slice(0, 8)) expect(calls.get(step)).toBe(callsBefore.get(step));
    expect(calls.get('accountingEntryGenerate')).toBe(1);
    expect(aggregateCalls).toBe(4);
    expect(await toyRows(h.db, failedRunId)).toEqual(STEP_NAMES.slice(0, 10));
  });

  it('fails the run at once, without retries, on an UnrecoverableError', async () => {
    let calls2 = 0;
    const reject = defineStep({
      name: 'reconcile',
      run: async () => {
        calls2++;
        throw new UnrecoverableError('RECON_DIFF_THRESHOLD is not configured');
      },
    });
    await h.startWorkers({ steps: toySteps(new Map(), { reconcile: reject }) });

    const run = await launchRun(h.db, h.queues, { settleMonth: '202407' });
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);

    expect(done.status).toBe('FAILED');
    expect(done.errorMessage).toBe('RECON_DIFF_THRESHOLD is not configured');
    expect(calls2).toBe(1);
    expect(steps.map((s) => [s.stepName, s.status])).toEqual([
      ['receiveData', 'COMPLETED'],
      ['transformData', 'COMPLETED'],
      ['reconcile', 'FAILED'],
    ]);
  });
});

describe('worker start-up', () => {
  it('refuses to start when a selected step has no handler', async () => {
    const steps = toySteps(new Map()).filter((s) => s.name !== 'aggregate');
    await expect(h.startWorkers({ steps, service: 'ledger-settlement' })).rejects.toThrow(
      'No handler for batch step(s): aggregate',
    );
    await expect(h.startWorkers({ steps, only: ['calcMaintain', 'aggregate'] })).rejects.toThrow(
      'No handler for batch step(s): aggregate',
    );
  });

  it('refuses a step hosted by another service', async () => {
    const only: StepName[] = ['receiveData'];
    await expect(
      h.startWorkers({ steps: toySteps(new Map()), service: 'payment-tax', only }),
    ).rejects.toThrow('Batch step(s) receiveData (hosted by intake) cannot run in payment-tax');
  });
});
