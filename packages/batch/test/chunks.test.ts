import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defineStep, launchRun, rangeChunks, restartRun, type StepDefinition } from '../src/index.js';
import { createToyTable, toySteps, type CallCounter } from './fixtures/toy-steps.js';
import { createHarness, sleep, waitFor, waitForRunEnd, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
  await createToyTable(h.db);
  await sql`CREATE TABLE chunk_output (id bigserial PRIMARY KEY, run_id bigint, chunk_no int, worker text, rows int)`.execute(
    h.db,
  );
});

afterEach(async () => {
  await h.stopWorkers();
});

afterAll(async () => {
  await h?.close();
});

/** calcMaintain split into 10 chunks of 100 ids; each chunk writes one row and its checkpoint in one transaction. */
function chunkedMaintain(worker: string, runs: string[]): StepDefinition {
  return defineStep({
    name: 'calcMaintain',
    plan: async () => rangeChunks(1, 1000, 100),
    run: async (ctx, chunk) =>
      ctx.chunkTransaction(async (trx) => {
        runs.push(`${worker}:${chunk!.chunkNo}`);
        const rows = chunk!.to - chunk!.from + 1;
        await sql`INSERT INTO chunk_output (run_id, chunk_no, worker, rows)
                  VALUES (${ctx.runId}, ${chunk!.chunkNo}, ${worker}, ${rows})`.execute(trx);
        await sleep(60);
        ctx.progress(rows);
        return { total: rows, success: rows - 1, error: 1, skipped: 0 };
      }),
  });
}

describe('a split step', () => {
  it('runs 10 chunks over two workers exactly once each and enqueues the next step exactly once', async () => {
    const calls: CallCounter = new Map();
    const runs: string[] = [];
    await h.startWorkers({ steps: toySteps(calls, { calcMaintain: chunkedMaintain('A', runs) }) });
    await h.startWorkers({ steps: [chunkedMaintain('B', runs)], only: ['calcMaintain'] });

    const run = await launchRun(h.db, h.queues, { settleMonth: '202412' });
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);

    expect(done.status).toBe('COMPLETED');
    const maintain = steps.find((s) => s.stepName === 'calcMaintain')!;
    expect(maintain).toMatchObject({
      status: 'COMPLETED',
      totalCount: 1000,
      successCount: 990,
      errorCount: 10,
      skippedCount: 0,
      chunkCount: 10,
      chunksCompleted: 10,
    });

    const { rows: chunks } = await sql<{
      chunk_no: number;
      status: string;
      attempts: number;
      total_count: number;
    }>`
      SELECT chunk_no, status, attempts, total_count FROM batch_chunk
      WHERE parent_job_log_id = ${run.jobLogId} ORDER BY chunk_no`.execute(h.db);
    expect(chunks).toEqual(
      Array.from({ length: 10 }, (_, i) => ({
        chunk_no: i + 1,
        status: 'COMPLETED',
        attempts: 1,
        total_count: 100,
      })),
    );

    const { rows: output } = await sql<{ chunk_no: number; worker: string }>`
      SELECT chunk_no, worker FROM chunk_output WHERE run_id = ${run.jobLogId} ORDER BY chunk_no`.execute(
      h.db,
    );
    expect(output.map((o) => o.chunk_no)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(runs).toHaveLength(10);
    // Both workers took part.
    expect(new Set(output.map((o) => o.worker))).toEqual(new Set(['A', 'B']));

    // The next step was enqueued once and ran once.
    expect(calls.get('calcOverride')).toBe(1);
    const overrideJobs = await h.queues
      .queue('calcOverride')
      .getJobs(['completed', 'failed', 'wait', 'active', 'delayed']);
    expect(overrideJobs.map((j) => j.id)).toEqual([`${run.jobLogId}-${run.runKey}-1-calcOverride`]);
    const chunkJobs = await h.queues.queue('calcMaintain').getJobs(['completed']);
    expect(chunkJobs).toHaveLength(11); // the planning job + 10 chunk jobs
  });

  it('completes a split step whose plan yields no chunks and moves on', async () => {
    const calls: CallCounter = new Map();
    const empty = defineStep({
      name: 'calcMaintain',
      plan: async () => [],
      run: async () => ({ total: 0, success: 0, error: 0 }),
    });
    await h.startWorkers({ steps: toySteps(calls, { calcMaintain: empty }) });
    const run = await launchRun(h.db, h.queues, { settleMonth: '202411' });
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);
    expect(done.status).toBe('COMPLETED');
    expect(steps.find((s) => s.stepName === 'calcMaintain')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 0,
      chunkCount: 0,
    });
    expect(calls.get('calcOverride')).toBe(1);
  });

  it('fails the run when one chunk keeps failing, and a restart redoes only the unfinished chunks', async () => {
    const calls: CallCounter = new Map();
    const chunkRuns: number[] = [];
    let broken = true;
    const step = defineStep({
      name: 'calcOverride',
      plan: async () => rangeChunks(1, 50, 10),
      run: async (ctx, chunk) =>
        ctx.chunkTransaction(async (trx) => {
          chunkRuns.push(chunk!.chunkNo);
          if (broken && chunk!.chunkNo === 3) throw new Error('override rule missing for grade G3');
          await sql`INSERT INTO chunk_output (run_id, chunk_no, worker, rows)
                    VALUES (${ctx.runId}, ${chunk!.chunkNo}, 'override', 10)`.execute(trx);
          return { total: 10, success: 10, error: 0 };
        }),
    });
    await h.startWorkers({ steps: toySteps(calls, { calcOverride: step }) });

    const run = await launchRun(h.db, h.queues, { settleMonth: '202410' });
    const failed = await waitForRunEnd(h.db, run.jobLogId);
    expect(failed.run).toMatchObject({
      status: 'FAILED',
      errorMessage: 'override rule missing for grade G3',
    });
    const failedStep = failed.steps.find((s) => s.stepName === 'calcOverride')!;
    expect(failedStep).toMatchObject({ status: 'FAILED', chunkCount: 5 });
    // The other chunks may finish after the failure; wait for them so the counts below are stable.
    await waitFor(async () => chunkRuns.filter((n) => n !== 3).length === 4, { what: 'the other chunks' });
    expect(chunkRuns.filter((n) => n === 3)).toHaveLength(3);
    expect(calls.has('aggregate')).toBe(false);

    broken = false;
    await restartRun(h.db, h.queues, run.jobLogId);
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId);
    expect(done.status).toBe('COMPLETED');
    expect(steps.find((s) => s.stepName === 'calcOverride')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 50,
      chunkCount: 5,
      chunksCompleted: 5,
      jobLogId: failedStep.jobLogId,
    });
    // Only chunk 3 ran again.
    expect(chunkRuns.filter((n) => n === 3)).toHaveLength(4);
    expect(chunkRuns).toHaveLength(8);
    const { rows } = await sql<{ chunk_no: number }>`
      SELECT chunk_no FROM chunk_output WHERE run_id = ${run.jobLogId} AND worker = 'override' ORDER BY chunk_no`.execute(
      h.db,
    );
    expect(rows.map((r) => r.chunk_no)).toEqual([1, 2, 3, 4, 5]);
    expect(calls.get('aggregate')).toBe(1);
  });
});

describe("a split step's own concurrency", () => {
  /** calcMaintain in 6 chunks that each hold their transaction 150 ms and record how many chunks were in flight. */
  function overlapping(concurrency: number | undefined, peak: { now: number; max: number }): StepDefinition {
    return defineStep({
      name: 'calcMaintain',
      ...(concurrency !== undefined ? { concurrency } : {}),
      plan: async () => rangeChunks(1, 600, 100),
      run: async (ctx, chunk) =>
        ctx.chunkTransaction(async () => {
          peak.now += 1;
          peak.max = Math.max(peak.max, peak.now);
          await sleep(150);
          peak.now -= 1;
          const rows = chunk!.to - chunk!.from + 1;
          return { total: rows, success: rows, error: 0, skipped: 0 };
        }),
    });
  }

  it('runs two chunks at once in one worker when the step declares concurrency 2, and the configuration overrides it', async () => {
    const calls: CallCounter = new Map();
    const declared = { now: 0, max: 0 };
    await h.startWorkers({ steps: toySteps(calls, { calcMaintain: overlapping(2, declared) }) });
    const first = await h.runMonth('202501');
    expect(first.run.status).toBe('COMPLETED');
    expect(declared.max).toBe(2);
    await h.stopWorkers();

    // BATCH_CONCURRENCY=1 (startStepWorkers' concurrency) wins over the step's own default
    const configured = { now: 0, max: 0 };
    await h.startWorkers({ steps: toySteps(calls, { calcMaintain: overlapping(2, configured) }), concurrency: 1 });
    const second = await h.runMonth('202502');
    expect(second.run.status).toBe('COMPLETED');
    expect(configured.max).toBe(1);
    await h.stopWorkers();

    // a step that declares nothing runs one chunk at a time
    const undeclared = { now: 0, max: 0 };
    await h.startWorkers({ steps: toySteps(calls, { calcMaintain: overlapping(undefined, undeclared) }) });
    const third = await h.runMonth('202503');
    expect(third.run.status).toBe('COMPLETED');
    expect(undeclared.max).toBe(1);
  });

  it('refuses a concurrency that is not a positive integer', () => {
    expect(() => defineStep({ name: 'calcMaintain', concurrency: 0, run: async () => ({ total: 0, success: 0, error: 0 }) })).toThrow(
      /concurrency must be a positive integer/,
    );
  });
});
