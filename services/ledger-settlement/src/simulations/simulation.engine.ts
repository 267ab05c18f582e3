import type { Chunk, StepContext, StepCounts, StepDefinition } from '@csp/batch';
import { clientTransaction, createDb, createPool, type Db } from '@csp/db';
import { sql } from 'kysely';
type Logger = StepContext['logger'];
import { ledgerSteps } from '../steps/index.js';

export interface EngineRun {
  simulationId: number;
  settleMonth: string;
  /** the scratch schema; unqualified names resolve there first, then to public */
  schema: string;
  connectionString: string;
  logger: Logger;
  signal?: AbortSignal;
  /** called after every chunk (or unsplit step) with the work units done so far and the planned total */
  onProgress?: (done: number, planned: number) => Promise<void>;
  /** filled with each step's wall milliseconds */
  timings: Record<string, number>;
}

/** Scratch tables analyzed after each step. */
const SCRATCH_STATISTICS = ['recruit_ledger', 'maintain_ledger', 'other_commission_ledger', 'override_settle', 'chargeback', 'settle_master', 'commission_master'];

/** A pool whose connections see `schema, public`: the steps' unqualified tables are the scratch copies. */
export function scratchDb(connectionString: string, schema: string, max = 2): Db {
  const pool = createPool({ connectionString, max, applicationName: `simulation-${schema}` });
  pool.on('connect', (client) => {
    void client.query(`SET search_path = ${schema}, public`);
  });
  return createDb(pool);
}

/**
 * The step context of a simulation: the real StepContext shape, run id = -simulation id (never a batch run),
 * no checkpoint rows (claim/complete are no-ops: the scratch schema is the simulation's only output).
 */
let engineRuns = 0;

function contextOf(run: EngineRun & { attempt: number }, db: Db, step: StepDefinition, chunk: Chunk | undefined): StepContext {
  const signal = run.signal ?? new AbortController().signal;
  return {
    step: step.name,
    runId: -run.simulationId,
    // unique per engine run: the per-run master-data cache (calc/run-cache.ts) must not serve an earlier run of the
    // same simulation (edited changes) or another simulation
    runAttempt: run.attempt,
    jobAttempt: 1,
    settleMonth: run.settleMonth,
    companyCode: undefined,
    requestId: undefined,
    stepLogId: 0,
    chunk,
    db,
    logger: run.logger.child({ simulationId: run.simulationId, step: step.name, chunkNo: chunk?.chunkNo }),
    signal,
    progress: () => undefined,
    completeChunk: async () => undefined,
    claimChunk: async () => undefined,
    chunkTransaction: (work) => clientTransaction(db, ({ db: trx, client }) => work(trx, client)),
  };
}

/**
 * Runs the ledger steps 4-9 (calcRecruit .. aggregate), the real step functions, in order on the scratch schema.
 * Chunks run one after the other on one connection at a time (the simulation is one job; the real run keeps
 * the machine's other workers).
 */
export async function runLedgerSteps(input: EngineRun): Promise<StepCounts> {
  const run = { ...input, attempt: ++engineRuns };
  const db = scratchDb(run.connectionString, run.schema);
  const total: StepCounts = { total: 0, success: 0, error: 0, skipped: 0 };
  try {
    // the search_path hook runs on connect: make sure it has run before the first query of a step
    await sql`SELECT 1`.execute(db);
    const plans: { step: StepDefinition; chunks: Chunk[] | undefined }[] = [];
    let planned = 0;
    let done = 0;
    for (const step of ledgerSteps) {
      if (run.signal?.aborted) throw new Error('simulation aborted');
      const ctx = contextOf(run, db, step, undefined);
      if (step.cleanup) await step.cleanup(ctx);
      // plans read the previous steps' output (calcOverride plans after the ledgers exist), so plan in turn
      const chunks = step.plan ? await step.plan(ctx) : undefined;
      plans.push({ step, chunks });
      planned += chunks?.length ?? 1;
      const parts = chunks ?? [undefined];
      const started = Date.now();
      for (const chunk of parts) {
        if (run.signal?.aborted) throw new Error('simulation aborted');
        const counts = await step.run(contextOf(run, db, step, chunk), chunk);
        total.total += counts.total;
        total.success += counts.success;
        total.error += counts.error;
        total.skipped = (total.skipped ?? 0) + (counts.skipped ?? 0);
        done++;
        await run.onProgress?.(done, Math.max(planned, done));
      }
      // the scratch tables start without statistics: the next steps' agent-range reads need them (the real
      // tables have theirs from earlier months)
      await sql`ANALYZE ${sql.join(SCRATCH_STATISTICS.map((t) => sql.id(run.schema, t)))}`.execute(db);
      run.timings[step.name] = Date.now() - started;
    }
    return total;
  } finally {
    await db.destroy();
  }
}
