import {
  defineStep,
  STEP_NAMES,
  type RunStatus,
  type StepDefinition,
  type StepName,
  type StepWorkers,
} from '@csp/batch';
import { createBatchHarness, type BatchHarness } from '@csp/batch/testing';
import { clearRunCache } from '../src/calc/run-cache.js';
import { ledgerSteps } from '../src/steps/index.js';

export { TEST_REDIS_URL as REDIS_URL } from '@csp/batch/testing';

/** The steps of other services do nothing here: this package tests steps 4-8. */
function noopStep(name: StepName): StepDefinition {
  return defineStep({ name, run: async () => ({ total: 0, success: 0, error: 0 }) });
}

export function allSteps(replace: Partial<Record<StepName, StepDefinition>> = {}): StepDefinition[] {
  const ours = new Map(ledgerSteps.map((s) => [s.name, s]));
  return STEP_NAMES.map((name) => replace[name] ?? ours.get(name) ?? noopStep(name));
}

export interface Harness extends Omit<BatchHarness, 'startWorkers' | 'runMonth'> {
  startWorkers(steps: StepDefinition[], only?: StepName[]): Promise<StepWorkers>;
  /** Launches a settlement run of the month and waits for its end. */
  runMonth(settleMonth: string): Promise<RunStatus>;
}

export async function createHarness(): Promise<Harness> {
  const h = await createBatchHarness({
    name: 'ledger',
    settings: { all: { attempts: 2, backoffMs: 50, timeoutMs: 60_000 } },
  });
  return {
    ...h,
    startWorkers: (steps, only) => h.startWorkers({ steps, ...(only ? { only } : {}) }),
    runMonth(settleMonth) {
      clearRunCache();
      return h.runMonth(settleMonth, undefined, 60_000);
    },
  };
}

/** Step counts of a finished run, by step name. */
export function stepCounts(status: RunStatus, step: StepName) {
  const s = status.steps.find((x) => x.stepName === step);
  if (!s) throw new Error(`no step row ${step}`);
  return {
    status: s.status,
    total: s.totalCount,
    success: s.successCount,
    error: s.errorCount,
    skipped: s.skippedCount,
  };
}
