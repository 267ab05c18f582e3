/**
 * The web bench's book: a database with the demo generator's book (like bench/settlement-bench.ts builds),
 * created when missing and kept for the next run. Its month is settled later by the platform
 * (services/web/test/platform/serve.ts settles the book's last month when none is settled yet).
 * Loads workspace packages by dynamic import (see run-from-source.ts).
 */
export interface WebBook {
  url: string;
  agents: number;
  contracts: number;
  /** The month the platform settles and the bench lists: 'YYYYMM'. */
  month: string;
  /** How the book came to be: generated now (with the time it took) or found. */
  origin: string;
}

export async function ensureWebBook(options: {
  baseUrl: string;
  dbName: string;
  agents: number;
  contracts: number;
  today: string;
  seed: string;
  log: (message: string) => void;
  /** false: the database is used as it is (a platform already runs on it). */
  migrate?: boolean;
}): Promise<WebBook> {
  const { createPool, migrate } = await import('../../packages/db/src/index.js');
  const { generateDemoBook } = await import('../../packages/demo-data/src/generate.js');
  if (!/^[a-z0-9_]+$/.test(options.dbName)) throw new Error(`unexpected database name ${options.dbName}`);
  const admin = createPool({ connectionString: options.baseUrl, max: 1 });
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.dbName])).rowCount! > 0;
    if (!exists) await admin.query(`CREATE DATABASE ${options.dbName}`);
  } finally {
    await admin.end();
  }
  const target = new URL(options.baseUrl);
  target.pathname = `/${options.dbName}`;
  const url = target.toString();
  const pool = createPool({ connectionString: url, max: 4, applicationName: 'web-bench-book' });
  try {
    if (options.migrate !== false) await migrate(pool);
    const present = (await pool.query<{ agents: number; contracts: number }>(
      'SELECT (SELECT count(*) FROM agent)::int AS agents, (SELECT count(*) FROM contract)::int AS contracts',
    )).rows[0]!;
    if (present.agents > 0) {
      // A month settled already, else the month before `today` (the generator's last closed month).
      const month = (await pool.query<{ m: string }>(
        `SELECT coalesce(max(settle_month), to_char(date_trunc('month', $1::date) - interval '1 month', 'YYYYMM')) AS m FROM settle_master`,
        [options.today],
      )).rows[0]!.m;
      return { url, agents: present.agents, contracts: present.contracts, month, origin: `found in ${options.dbName}` };
    }
    const book = await generateDemoBook(pool, {
      agents: options.agents,
      contracts: options.contracts,
      seed: options.seed,
      today: options.today,
      log: options.log,
    });
    return {
      url,
      agents: book.agents,
      contracts: book.contracts,
      month: book.lastClosedMonth,
      origin: `generated in ${(book.timings.totalMs / 1000).toFixed(1)} s into ${options.dbName}`,
    };
  } finally {
    await pool.end();
  }
}
