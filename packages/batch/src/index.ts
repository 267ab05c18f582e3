export * from './steps.js';
export {
  chunkSchema,
  stepPayloadSchema,
  parseStepPayload,
  InvalidStepPayloadError,
  SETTLE_MONTH_PATTERN,
  type Chunk,
  type StepPayload,
  type StepPayloadSchema,
} from './payload.js';
export * from './errors.js';
export { stepJobId, chunkJobId, type JobRunRef } from './job-ids.js';
export { createQueues, type BatchQueues, type BatchQueuesOptions, type RedisConnection } from './queues.js';
export {
  requestRun,
  activeRunId,
  startRun,
  launchRun,
  restartRun,
  failRun,
  getRunStatus,
  listRuns,
  type RequestRunInput,
  type StartRunOptions,
  type RunRef,
  type ListRunsQuery,
  type RunPage,
} from './run.js';
export type { BatchRunView, BatchStepView, RunStatus } from './views.js';
export {
  defineStep,
  rangeChunks,
  type StepContext,
  type StepDefinition,
  type StepCounts,
  type Trx,
} from './define-step.js';
export { PROGRESS_LOG_EVERY } from './step-context.js';
export type { StepJobResult } from './step-processor.js';
export { startStepWorkers, selectSteps, type StartStepWorkersOptions, type StepWorkers } from './worker.js';
export { UnrecoverableError } from 'bullmq';
export type { BatchDatabase, BatchStatus, BatchChunkStatus } from './db.js';
export { runWorkerProcess, WORKER_ENV_KEYS, type WorkerProcessOptions, type WorkerEnv } from './worker-process.js';
export { JobIdCollisionError } from './errors.js';
export { listLiveWorkers, type StepWorkerList } from './live-workers.js';
export {
  WATCHDOG_DEFAULTS,
  checkActiveRuns,
  diagnoseRun,
  inspectRun,
  startWatchdog,
  type RunDiagnosis,
  type Watchdog,
  type WatchdogLogger,
  type WatchdogSettings,
} from './watchdog.js';
export { describeRun, stepProgress, type MonitoredStep, type RunMonitor, type StepProgress } from './run-monitor.js';
export { observeBatch, recordWatchdogPass, traceOf } from './telemetry.js';
