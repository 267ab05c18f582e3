import { describe, expect, it } from 'vitest';
import { stepProgress } from './run-monitor.js';
import type { BatchStepView } from './views.js';

const T0 = new Date('2025-01-01T00:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

function step(over: Partial<BatchStepView>): BatchStepView {
  return {
    jobLogId: 2,
    stepName: 'calcMaintain',
    stepSeq: 5,
    status: 'RUNNING',
    skipped: false,
    skipReason: null,
    totalCount: 0,
    successCount: 0,
    errorCount: 0,
    skippedCount: 0,
    errorMessage: null,
    startedAt: T0,
    endedAt: null,
    durationMs: null,
    chunkCount: 0,
    chunksCompleted: 0,
    updatedAt: T0,
    ...over,
  };
}

describe('step progress', () => {
  it('gives a running split step chunks done/planned, a record rate and the time left from the chunk pace', () => {
    expect(stepProgress(step({ chunkCount: 250, chunksCompleted: 50, totalCount: 200_000 }), at(20))).toEqual({
      unit: 'chunks',
      processed: 50,
      total: 250,
      records: 200_000,
      ratePerSecond: 10_000,
      etaSeconds: 80,
      percent: 20,
    });
  });

  it('has no estimate before the first chunk is done and 0 left once the step completed', () => {
    expect(stepProgress(step({ chunkCount: 10 }), at(3)).etaSeconds).toBeNull();
    const done = step({ status: 'COMPLETED', chunkCount: 10, chunksCompleted: 10, totalCount: 5000, durationMs: 2500 });
    expect(stepProgress(done, at(60))).toMatchObject({ processed: 10, total: 10, etaSeconds: 0, percent: 100, ratePerSecond: 2000 });
  });

  it('counts a running unsplit step by its job progress, with no total until it completes', () => {
    expect(stepProgress(step({ stepName: 'aggregate' }), at(4), 8000)).toEqual({
      unit: 'records',
      processed: 8000,
      total: null,
      records: 8000,
      ratePerSecond: 2000,
      etaSeconds: null,
      percent: null,
    });
    const done = step({ status: 'COMPLETED', totalCount: 900, durationMs: 300 });
    expect(stepProgress(done, at(9))).toMatchObject({ processed: 900, total: 900, ratePerSecond: null, percent: 100 });
  });
});
