import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchRun } from '../src/index.js';
import {
  createSlowTables,
  HANG_CHUNK,
  SLOW_CHUNK_SIZE,
  SLOW_INPUT_ROWS,
  slowMaintainStep,
} from './fixtures/slow-step.js';
import { createToyTable, toySteps } from './fixtures/toy-steps.js';
import { createHarness, REDIS_URL, waitFor, waitForRunEnd, type Harness } from './helpers.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const CHILD_SCRIPT = fileURLToPath(new URL('./fixtures/chunk-worker.ts', import.meta.url));

let h: Harness;
let child: ChildProcess | undefined;

beforeAll(async () => {
  h = await createHarness();
  await createToyTable(h.db);
  await createSlowTables(h.db);
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await h?.close();
});

function startChildWorker(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD_SCRIPT], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, DATABASE_URL: h.tdb.url, REDIS_URL, BATCH_PREFIX: h.prefix, HOLD_MS: '300' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(proc);
    });
    proc.once('exit', (code) => reject(new Error(`child worker exited early (${code}): ${stderr}`)));
  });
}

interface ChunkRow {
  chunk_no: number;
  status: string;
  attempts: number;
}

async function chunkRows(runId: number): Promise<ChunkRow[]> {
  const { rows } = await sql<ChunkRow>`
    SELECT chunk_no, status, attempts FROM batch_chunk WHERE parent_job_log_id = ${runId} ORDER BY chunk_no`.execute(
    h.db,
  );
  return rows;
}

describe('a worker process killed in the middle of a chunk', () => {
  it('leaves no trace: another worker finishes the run with exactly one output row per input', async () => {
    // Every step but calcMaintain runs in this process; calcMaintain first runs only in the child.
    await h.startWorkers({ steps: toySteps(new Map()).filter((s) => s.name !== 'calcMaintain') });
    child = await startChildWorker();

    const run = await launchRun(h.db, h.queues, { settleMonth: '202412' });
    // The child hangs inside chunk HANG_CHUNK with its output written but not committed.
    await waitFor(
      async () => {
        const rows = await chunkRows(run.jobLogId);
        const completed = rows.filter((r) => r.status === 'COMPLETED').length;
        const { rows: marker } = await sql`SELECT 1 FROM slow_marker WHERE worker = 'child'`.execute(h.db);
        return completed >= 3 && marker.length > 0;
      },
      { what: 'the child to be in the middle of the chunks', intervalMs: 10 },
    );
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();
    // Nobody else works on calcMaintain yet: chunks still RUNNING were in flight when the child died.
    const inFlight = (await chunkRows(run.jobLogId))
      .filter((r) => r.status === 'RUNNING')
      .map((r) => r.chunk_no);

    await h.startWorkers({
      steps: [slowMaintainStep('parent', 20)],
      only: ['calcMaintain'],
      lockDuration: 1000,
      stalledInterval: 1000,
    });
    const { run: done, steps } = await waitForRunEnd(h.db, run.jobLogId, 25_000);
    const recoveryMs = Date.now() - killedAt;

    expect(done.status).toBe('COMPLETED');
    expect(steps.find((s) => s.stepName === 'calcMaintain')).toMatchObject({
      status: 'COMPLETED',
      totalCount: SLOW_INPUT_ROWS,
      successCount: SLOW_INPUT_ROWS,
      chunkCount: SLOW_INPUT_ROWS / SLOW_CHUNK_SIZE,
    });

    const { rows: counts } = await sql<{ total: number; distinct_inputs: number }>`
      SELECT count(*)::int AS total, count(DISTINCT input_id)::int AS distinct_inputs
      FROM slow_output WHERE run_id = ${run.jobLogId}`.execute(h.db);
    expect(counts[0]).toEqual({ total: SLOW_INPUT_ROWS, distinct_inputs: SLOW_INPUT_ROWS });

    const { rows: workers } = await sql<{ worker: string }>`
      SELECT DISTINCT worker FROM slow_output WHERE run_id = ${run.jobLogId} ORDER BY worker`.execute(h.db);
    expect(workers.map((w) => w.worker)).toEqual(['child', 'parent']);

    const final = await chunkRows(run.jobLogId);
    expect(final.every((r) => r.status === 'COMPLETED')).toBe(true);
    // The chunks the child was in the middle of were delivered again (a stall does not use up a retry).
    expect(inFlight).toContain(HANG_CHUNK);
    for (const no of inFlight)
      expect(final.find((r) => r.chunk_no === no)!.attempts).toBeGreaterThanOrEqual(2);
    expect(recoveryMs).toBeLessThan(15_000);
    console.info(
      `killed-worker recovery: run completed ${recoveryMs} ms after SIGKILL (in flight: ${inFlight.join(',')})`,
    );
  }, 60_000);
});
