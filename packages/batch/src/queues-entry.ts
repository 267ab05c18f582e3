// `@csp/batch/queues`: the queues and their live workers without the database side, for processes that
// only look at Redis (the gateway's health and queue dashboard).
export { createQueues, type BatchQueues, type BatchQueuesOptions, type RedisConnection } from './queues.js';
export { listLiveWorkers, type StepWorkerList } from './live-workers.js';
export { STEP_NAMES, queueNameOf, type StepName } from './steps.js';
