import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchRunningError,
  JobIdCollisionError,
  launchRun,
  requestRun,
  startRun,
  startStepWorkers,
  stepJobId,
  type StepWorkers,
} from '../src/index.js';
import { createToyTable, toySteps } from './fixtures/toy-steps.js';
import {
  createHarness,
  FAST_SETTINGS,
  REDIS_URL,
  testLogger,
  waitFor,
  waitForRunEnd,
  type Harness,
} from './helpers.js';

// One Redis prefix, two databases: the situation of `rm -rf .data` on the same local Redis, of a
// restored backup, and of two environments that share one Redis.
let h: Harness;
let second: TestDatabase;
let secondWorkers: StepWorkers | undefined;

beforeAll(async () => {
  h = await createHarness();
  second = await createTestDatabase();
  await createToyTable(h.db);
  await createToyTable(second.db);
});

afterEach(async () => {
  await h.stopWorkers();
  await secondWorkers?.close();
  secondWorkers = undefined;
});

afterAll(async () => {
  await h?.close();
  await second?.drop();
});

function startSecondWorkers() {
  return startStepWorkers({
    connection: REDIS_URL,
    prefix: h.prefix,
    db: second.db,
    steps: toySteps(new Map()),
    settings: FAST_SETTINGS,
    logger: testLogger,
    handleSignals: false,
  });
}

describe('job identity', () => {
  it('lets a fresh database on the same Redis complete its first run, although its run id is 1 again', async () => {
    await h.startWorkers({ steps: toySteps(new Map()) });
    const first = await h.runMonth('202412');
    expect(first.run.status).toBe('COMPLETED');
    expect(first.run.jobLogId).toBe(1);
    await h.stopWorkers();

    // "delete .data and start again": a new database whose ids start at 1, the old jobs still in Redis.
    secondWorkers = await startSecondWorkers();
    const run = await launchRun(second.db, h.queues, { settleMonth: '202412' });
    expect(run.jobLogId).toBe(1);
    expect(run.runKey).not.toBe(first.run.runKey);
    const done = await waitForRunEnd(second.db, run.jobLogId);
    expect(done.run.status).toBe('COMPLETED');
    expect(done.steps.map((s) => s.status)).toEqual(Array(13).fill('COMPLETED'));

    const ids = (await h.queues.queue('receiveData').getJobs(['completed'])).map((j) => j.id).sort();
    expect(ids).toEqual(
      [stepJobId({ runId: 1, runKey: first.run.runKey, attempt: 1 }, 'receiveData'), stepJobId({ runId: 1, runKey: run.runKey, attempt: 1 }, 'receiveData')].sort(),
    );
  });

  it('completes the next run after a restore brings back the same run id (rows removed, sequence set back)', async () => {
    secondWorkers = await startSecondWorkers();
    const before = await launchRun(second.db, h.queues, { settleMonth: '202501' });
    expect((await waitForRunEnd(second.db, before.jobLogId)).run.status).toBe('COMPLETED');

    // What restoring a backup taken before that run does to the table: the rows are gone, the
    // sequence is back where it was, the finished jobs are still in Redis.
    await sql`DELETE FROM batch_job_log WHERE job_log_id = ${before.jobLogId} OR parent_job_log_id = ${before.jobLogId}`.execute(
      second.db,
    );
    await sql`SELECT setval('batch_job_log_job_log_id_seq', ${before.jobLogId}, false)`.execute(second.db);

    const again = await launchRun(second.db, h.queues, { settleMonth: '202501' });
    expect(again.jobLogId).toBe(before.jobLogId);
    const done = await waitForRunEnd(second.db, again.jobLogId);
    expect(done.run.status).toBe('COMPLETED');
    expect(done.run.runKey).toBe(again.runKey);
  });

  it('fails loudly when the first job id is already held by a job of another run', async () => {
    const run = await requestRun(h.db, { settleMonth: '202502' });
    const id = stepJobId({ runId: run.jobLogId, runKey: run.runKey, attempt: 1 }, 'receiveData');
    // Planted under this run's id with another run's payload (nothing makes this happen by chance).
    await h.queues.queue('receiveData').add(
      'receiveData',
      { runId: run.jobLogId, runKey: '00000000-0000-4000-8000-000000000000', attempt: 1, settleMonth: '202502' },
      { jobId: id },
    );
    const err = await startRun(h.queues, run).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobIdCollisionError);
    expect((err as Error).message).toBe(
      `BullMQ job id ${id} in settlement.receiveData already belongs to another run (run ${run.jobLogId} key 00000000-0000-4000-8000-000000000000 attempt 1); the job was not added`,
    );
    await h.queues.queue('receiveData').remove(id);
    await sql`UPDATE batch_job_log SET status = 'FAILED' WHERE job_log_id = ${run.jobLogId}`.execute(h.db);
  });

  it('ignores a job whose run key is not its run row\'s (another environment\'s job with the same run id)', async () => {
    await h.startWorkers({ steps: toySteps(new Map()) });
    const run = await requestRun(h.db, { settleMonth: '202503' });
    const foreign = await h.queues.queue('receiveData').add(
      'receiveData',
      { runId: run.jobLogId, runKey: '00000000-0000-4000-8000-000000000001', attempt: 1, settleMonth: '202503' },
      { jobId: `foreign-${run.jobLogId}` },
    );
    const result = await waitFor(async () => (await h.queues.queue('receiveData').getJob(foreign.id!))?.returnvalue, {
      what: 'the foreign job to be processed',
    });
    expect(result).toEqual({ outcome: 'stale' });
    const { rows } = await sql<{ status: string; steps: number }>`
      SELECT status, (SELECT count(*)::int FROM batch_job_log s WHERE s.parent_job_log_id = r.job_log_id) AS steps
        FROM batch_job_log r WHERE job_log_id = ${run.jobLogId}`.execute(h.db);
    expect(rows[0]).toEqual({ status: 'REQUESTED', steps: 0 });
    await sql`UPDATE batch_job_log SET status = 'FAILED' WHERE job_log_id = ${run.jobLogId}`.execute(h.db);
  });
});

describe('concurrent run requests', () => {
  it('accepts exactly one of 200 concurrent launches, and that run completes', async () => {
    await h.startWorkers({ steps: toySteps(new Map()) });
    const started = Date.now();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        launchRun(h.db, h.queues, { settleMonth: '202504', requestedBy: i + 1, requestId: `burst-${i}` }),
      ),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(accepted).toHaveLength(1);
    expect(rejected).toHaveLength(199);
    expect(rejected.every((r) => r.reason instanceof BatchRunningError)).toBe(true);
    const run = accepted[0]!.value;
    const done = await waitForRunEnd(h.db, run.jobLogId);
    expect(done.run.status).toBe('COMPLETED');
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM batch_job_log WHERE step_name IS NULL AND settle_month = '202504'`.execute(h.db);
    expect(rows[0]!.n).toBe(1);
    console.info(`200 concurrent launches: 1 accepted, run completed in ${Date.now() - started} ms`);
  });
});
