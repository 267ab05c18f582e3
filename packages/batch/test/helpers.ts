import { createBatchHarness, type BatchHarness } from '../src/testing.js';

export {
  FAST_SETTINGS,
  TEST_REDIS_URL as REDIS_URL,
  removeRedisPrefix as removePrefix,
  sleep,
  testLogger,
  waitFor,
  waitForRunEnd,
} from '../src/testing.js';

export type Harness = BatchHarness;

export function createHarness(): Promise<Harness> {
  return createBatchHarness();
}
