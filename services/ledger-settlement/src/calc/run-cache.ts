import type { StepContext } from '@csp/batch';

/**
 * Master data loaded once per run attempt and worker process: every chunk of a step (and the later steps of
 * the same run in this process) reuses it. Only the latest run's entries are kept.
 */
const cache = new Map<string, Promise<unknown>>();
let currentRun = '';

export function perRun<T>(
  ctx: Pick<StepContext, 'runId' | 'runAttempt'>,
  name: string,
  load: () => Promise<T>,
): Promise<T> {
  const run = `${ctx.runId}:${ctx.runAttempt}`;
  if (run !== currentRun) {
    cache.clear();
    currentRun = run;
  }
  const key = `${run}:${name}`;
  let entry = cache.get(key) as Promise<T> | undefined;
  if (!entry) {
    entry = load();
    cache.set(key, entry);
    // A failed load must not poison later attempts.
    entry.catch(() => {
      if (cache.get(key) === entry) cache.delete(key);
    });
  }
  return entry;
}

/** For tests: forget everything. */
export function clearRunCache(): void {
  cache.clear();
  currentRun = '';
}
