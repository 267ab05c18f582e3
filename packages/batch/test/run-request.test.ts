import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchRunningError,
  failRun,
  getRunStatus,
  InvalidStepPayloadError,
  listRuns,
  requestRun,
  restartRun,
  RunNotFoundError,
  RunStateError,
  stepJobId,
} from '../src/index.js';
import { createHarness, type Harness } from './helpers.js';

const KEY = '6f1c2a4e-8d3b-4f6a-9c2e-1b7d5e3a9f01';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});

afterAll(async () => {
  await h?.close();
});

describe('run requests', () => {
  it('accepts exactly one of 20 concurrent requests; the other 19 get BatchRunningError', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => requestRun(h.db, { settleMonth: '202501', requestedBy: i + 1 })),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(accepted).toHaveLength(1);
    expect(rejected).toHaveLength(19);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(BatchRunningError);
      expect((r.reason as BatchRunningError).code).toBe('BATCH_RUNNING');
    }
    const page = await listRuns(h.db, { jobName: 'SETTLEMENT' });
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ status: 'REQUESTED', settleMonth: '202501', runAttempt: 1 });
    await failRun(h.db, page.list[0]!.jobLogId, 'test cleanup');
  });

  it('refuses a run for another month while one is active, since only one run per job name may be active', async () => {
    const first = await requestRun(h.db, { settleMonth: '202502' });
    await expect(requestRun(h.db, { settleMonth: '202503' })).rejects.toBeInstanceOf(BatchRunningError);
    // Another job name is independent.
    const other = await requestRun(h.db, { jobName: 'SETTLEMENT_SIM', settleMonth: '202503' });
    expect(other.jobName).toBe('SETTLEMENT_SIM');
    await failRun(h.db, other.jobLogId, 'test cleanup');

    const failed = await failRun(h.db, first.jobLogId, 'jobs lost from Redis');
    expect(failed).toMatchObject({ status: 'FAILED', errorMessage: 'jobs lost from Redis' });
    const next = await requestRun(h.db, { settleMonth: '202503' });
    expect(next.status).toBe('REQUESTED');

    // A restart is subject to the same rule.
    await expect(restartRun(h.db, h.queues, first.jobLogId)).rejects.toBeInstanceOf(BatchRunningError);
    expect((await getRunStatus(h.db, first.jobLogId))!.run.status).toBe('FAILED');
    await failRun(h.db, next.jobLogId, 'test cleanup');
  });

  it('restarts only FAILED runs', async () => {
    const run = await requestRun(h.db, { settleMonth: '202504' });
    await expect(restartRun(h.db, h.queues, run.jobLogId)).rejects.toBeInstanceOf(RunStateError);
    await expect(restartRun(h.db, h.queues, 999_999)).rejects.toBeInstanceOf(RunNotFoundError);
    await failRun(h.db, run.jobLogId, 'test cleanup');
    await expect(failRun(h.db, run.jobLogId, 'again')).rejects.toBeInstanceOf(RunStateError);
  });

  it('rejects a malformed settle month before touching the database', async () => {
    await expect(requestRun(h.db, { settleMonth: '202513' })).rejects.toThrow(RangeError);
    await expect(requestRun(h.db, { settleMonth: '2025-01' })).rejects.toThrow(RangeError);
  });

  it('returns undefined status for an unknown run and lists runs newest first in pages', async () => {
    expect(await getRunStatus(h.db, 424_242)).toBeUndefined();
    const page1 = await listRuns(h.db, { pageNum: 1, pageSize: 2 });
    const page2 = await listRuns(h.db, { pageNum: 2, pageSize: 2 });
    expect(page1.total).toBeGreaterThanOrEqual(4);
    expect(page1.pages).toBe(Math.ceil(page1.total / 2));
    expect(page1.list).toHaveLength(2);
    expect(page1.list[0]!.jobLogId).toBeGreaterThan(page1.list[1]!.jobLogId);
    expect(page1.list[1]!.jobLogId).toBeGreaterThan(page2.list[0]!.jobLogId);
    const failedOnly = await listRuns(h.db, { status: 'FAILED', settleMonth: '202504' });
    expect(failedOnly.list.map((r) => r.settleMonth)).toEqual(['202504']);
  });
});

describe('job payloads', () => {
  it('are validated when added: extra fields (such as personal data) and bad months are refused', async () => {
    const base = { runId: 1, runKey: KEY, attempt: 1, settleMonth: '202501' };
    await expect(
      h.queues.enqueueStep('receiveData', { ...base, agentName: 'Kim' } as unknown as typeof base),
    ).rejects.toBeInstanceOf(InvalidStepPayloadError);
    await expect(h.queues.enqueueStep('receiveData', { ...base, settleMonth: '202500' })).rejects.toThrow(
      'settleMonth must be YYYYMM',
    );
    expect(await h.queues.queue('receiveData').getJobCounts('wait')).toEqual({ wait: 0 });
  });

  it('use a job id of the run row (number, key and attempt), so a second add of the same step is a no-op', async () => {
    const payload = { runId: 77, runKey: KEY, attempt: 1, settleMonth: '202501' };
    await h.queues.enqueueStep('transformData', payload);
    await h.queues.enqueueStep('transformData', payload);
    const jobs = await h.queues.queue('transformData').getJobs(['wait']);
    expect(jobs.map((j) => j.id)).toEqual([stepJobId(payload, 'transformData')]);
    expect(jobs[0]!.id).toBe(`77-${KEY}-1-transformData`);
    expect(jobs[0]!.opts.attempts).toBe(3);
    expect(jobs[0]!.opts.backoff).toEqual({ type: 'exponential', delay: 50 });
    expect(jobs[0]!.data).toEqual(payload);
  });
});
