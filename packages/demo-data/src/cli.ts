import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createPool, migrate } from '@csp/db';
import { DemoDataExistsError, generateDemoBook } from './generate.js';
import { runCarrierFilesCommand } from './carrier-files.js';

const USAGE = `usage: pnpm demo-data -- [--agents N] [--contracts M] [--seed S] [--today YYYY-MM-DD] [--database-url URL] [--force]
  defaults: --agents 500 --contracts 50000 --seed demo, DATABASE_URL or postgres://postgres@127.0.0.1:5432/commission
       pnpm demo-data -- --carrier-files DIR [--carrier-month YYYYMM] [--carrier-diffs N] [--database-url URL]
  writes one carrier file per company for a calculated month (default: the latest completed run) instead of
  loading a book`;

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text.replaceAll('_', ''));
  if (!Number.isInteger(n) || n < 0)
    throw new RangeError(`--${name} must be a non-negative integer, got '${text}'`);
  return n;
}

/**
 * The demo-data command: migrates the database, then loads a seeded demo book. Returns the exit
 * code. A database that already has agents is left alone (exit 0 with a notice) unless --force.
 */
export async function runDemoDataCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    options: {
      agents: { type: 'string' },
      contracts: { type: 'string' },
      seed: { type: 'string' },
      today: { type: 'string' },
      'database-url': { type: 'string' },
      force: { type: 'boolean', default: false },
      'carrier-files': { type: 'string' },
      'carrier-month': { type: 'string' },
      'carrier-diffs': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const databaseUrl =
    values['database-url'] ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/commission';
  const pool = createPool({ connectionString: databaseUrl, max: 2, applicationName: 'demo-data' });
  try {
    await migrate(pool);
    if (values['carrier-files']) {
      return await runCarrierFilesCommand(pool, {
        outDir: values['carrier-files'],
        settleMonth: values['carrier-month'],
        diffs: values['carrier-diffs'],
      });
    }
    const result = await generateDemoBook(pool, {
      agents: positiveInt('agents', values.agents, 500),
      contracts: positiveInt('contracts', values.contracts, 50_000),
      seed: values.seed ?? 'demo',
      ...(values.today ? { today: values.today } : {}),
      force: values.force,
      log: (message) => console.log(`[demo-data] ${message}`),
    });
    console.log(
      `[demo-data] loaded ${result.agents} agents (${result.branches} branches, ${result.teams} teams), ` +
        `${result.companies} companies, ${result.products} products, ${result.contracts} contracts ` +
        `(${result.lapses} lapsed, ${result.successions} successions) in ${(result.timings.totalMs / 1000).toFixed(1)} s; ` +
        `contract months ${result.firstContractMonth}..${result.lastClosedMonth}, seed '${result.seed}'`,
    );
    return 0;
  } catch (err) {
    if (err instanceof DemoDataExistsError) {
      console.log(`[demo-data] nothing loaded: ${err.message}`);
      return 0;
    }
    console.error(`[demo-data] failed: ${(err as Error).message}`);
    if (err instanceof RangeError || err instanceof TypeError) console.error(USAGE);
    return 1;
  } finally {
    await pool.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runDemoDataCli(process.argv.slice(2));
}
