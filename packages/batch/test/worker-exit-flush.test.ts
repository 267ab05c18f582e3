import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { removeRedisPrefix, TEST_REDIS_URL } from '../src/testing.js';

/**
 * A worker process stopped by SIGTERM (a scale-down, a rollout) exports the spans still queued in the
 * tracing SDK's batch processor before it exits: otherwise the last chunks of a run vanish from its trace.
 */

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const CHILD_SCRIPT = fileURLToPath(new URL('./fixtures/flush-on-exit-worker.ts', import.meta.url));
const PREFIX = `test-flush-exit-${process.pid}`;

afterAll(async () => {
  await removeRedisPrefix(PREFIX);
});

describe('worker exit', () => {
  it('flushes tracing before it exits on SIGTERM, and exits 0', async () => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD_SCRIPT], {
      cwd: PACKAGE_DIR,
      env: { ...process.env, REDIS_URL: TEST_REDIS_URL, BATCH_PREFIX: PREFIX, FLUSH_MS: '300' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('ready')) resolve();
      });
      void exited.then((code) => reject(new Error(`worker exited before it was ready (${code}): ${stderr}`)));
    });
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    expect(code).toBe(0);
    expect(stdout.split('\n').filter(Boolean)).toEqual(['ready', 'flushed']);
    // it waited for the slow flush rather than exiting as soon as the workers closed
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(300);
  }, 60_000);
});
