import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { runDemoDataCli } from '@csp/demo-data';
import { DemoDataExistsError, generateDemoBook, type DemoBookResult } from '@csp/demo-data';

const OPTIONS = { agents: 400, contracts: 20_000, seed: 'repro', today: '2025-08-15' };
let first: TestDatabase;
let second: TestDatabase;
let third: TestDatabase;
let result: DemoBookResult;

/** A digest of the business columns of a table (no timestamps). */
async function digest(db: TestDatabase, table: string, columns: string, order: string): Promise<string> {
  const { rows } = await db.pool.query(
    `SELECT md5(string_agg(row(${columns})::text, '|' ORDER BY ${order})) AS d FROM ${table}`,
  );
  return rows[0].d;
}

const BOOK: Array<[string, string, string]> = [
  ['organization', 'org_id, parent_org_id, org_name, org_type, org_level', 'org_id'],
  ['agent', 'agent_id, org_id, grade_id, agent_name, status, join_date, leave_date', 'agent_id'],
  ['product', 'product_id, company_id, product_code, insurance_type', 'product_id'],
  ['commission_rate', 'product_id, commission_year, rate_pct', 'product_id, commission_year'],
  [
    'payout_rule',
    'grade_id, insurance_type, commission_year, payout_pct',
    'grade_id, insurance_type, commission_year',
  ],
  [
    'contract',
    'contract_id, agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date, lapse_date, revival_date',
    'contract_id',
  ],
  ['contract_succession', 'contract_id, from_agent_id, to_agent_id, effective_month', 'contract_id'],
];

async function bookDigest(db: TestDatabase): Promise<string[]> {
  return Promise.all(BOOK.map(([table, columns, order]) => digest(db, table, columns, order)));
}

beforeAll(async () => {
  [first, second, third] = await Promise.all([
    createTestDatabase(),
    createTestDatabase(),
    createTestDatabase(),
  ]);
  result = await generateDemoBook(first.pool, OPTIONS);
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.drop(), second?.drop(), third?.drop()]);
});

describe('demo data generator', () => {
  it('builds the described book: an HQ/BR/TM tree, rules for every product and year, five years of contracts', async () => {
    expect(result).toMatchObject({
      agents: 400,
      branches: 2,
      teams: 20,
      orgs: 23,
      contracts: 20_000,
      successions: 200,
      payoutRules: 180,
      overrideRules: 5,
    });
    expect(result.companies).toBeGreaterThanOrEqual(3);
    expect(result.companies).toBeLessThanOrEqual(5);
    expect(result.commissionRates).toBe(result.products * 5);
    expect(result.lapses / result.contracts).toBeGreaterThan(0.06);
    expect(result.lapses / result.contracts).toBeLessThan(0.1);
    expect(result).toMatchObject({ firstContractMonth: '202008', lastClosedMonth: '202507' });
    const q = async (text: string) => (await first.pool.query(text)).rows[0];
    expect(
      // the main book (the contracts of commission year 6+ follow its ids)
      await q(`SELECT min(contract_date)::text AS lo, max(contract_date)::text AS hi FROM contract WHERE contract_id <= 20000`),
    ).toEqual({ lo: expect.stringMatching(/^2020-08/), hi: expect.stringMatching(/^2025-07/) });
    expect(await q(`SELECT count(*)::int AS n FROM organization WHERE org_type = 'HQ'`)).toEqual({ n: 1 });
    expect(await q(`SELECT count(*)::int AS n FROM override_rule WHERE cap_amount IS NOT NULL`)).toEqual({
      n: 3,
    });
    // one leader per team, one manager per branch, one director
    expect(
      await q(
        `SELECT count(*) FILTER (WHERE grade_id = 3)::int AS tm, count(*) FILTER (WHERE grade_id = 4)::int AS br, count(*) FILTER (WHERE grade_id = 5)::int AS hq FROM agent`,
      ),
    ).toEqual({ tm: 20, br: 2, hq: 1 });
    // successions hand maintain commission to an ACTIVE colleague from a month after the contract's first year
    expect(
      await q(`SELECT count(*)::int AS n FROM contract_succession s JOIN contract c ON c.contract_id = s.contract_id
                    JOIN agent t ON t.agent_id = s.to_agent_id
                    WHERE s.from_agent_id = c.agent_id AND t.status = 'ACTIVE' AND c.status = 'ACTIVE'`),
    ).toEqual({ n: 200 });
    // the serial sequences continue after the generated ids
    const next = await q(
      `INSERT INTO organization (org_name, org_type) VALUES ('after', 'TM') RETURNING org_id`,
    );
    expect(Number(next.org_id)).toBe(24);
    await first.pool.query('DELETE FROM organization WHERE org_id = 24');
  });

  it('adds what a settled month needs to show every commission type', async () => {
    expect(result.otherCommissions).toMatchObject({ recruits: 4, legacyContracts: 200, renewals: 20, revivals: 10 });
    expect(result.otherCommissions.historyRows).toBeGreaterThan(300);
    expect(result.agentIds).toEqual({ first: 1, last: 404 });
    const q = async (text: string) => (await first.pool.query(text)).rows[0];
    // rules of the five types and an incentive program with two tiers
    expect(
      await q(`SELECT (SELECT count(*) FROM collection_rule WHERE min_commission_year = 6)::int > 0 AS collection,
                      (SELECT count(*) FROM renewal_rule)::int > 0 AS renewal, (SELECT count(*) FROM reinstatement_rule)::int > 0 AS reinstatement,
                      (SELECT count(*) FROM persistency_rule)::int AS persistency, (SELECT count(*) FROM appointment_rule)::int AS appointment,
                      (SELECT count(*) FROM incentive_tier)::int AS tiers`),
    ).toEqual({ collection: true, renewal: true, reinstatement: true, persistency: 12, appointment: 2, tiers: 2 });
    // recruits joined in the three months before the last complete month's end; legacy contracts are 6+ years old
    expect(await q(`SELECT count(*)::int AS n FROM agent WHERE agent_id > 400 AND grade_id = 1 AND join_date BETWEEN '2025-05-01' AND '2025-07-31'`)).toEqual({ n: 4 });
    expect(await q(`SELECT count(*)::int AS n FROM contract WHERE contract_id > 20000 AND contract_date < '2020-08-01'`)).toEqual({ n: 200 });
    // renewals and revivals dated in the last complete month, history in the months 13 and 25 before it
    expect(await q(`SELECT count(*)::int AS n FROM contract_endorsement WHERE endorse_type = 'RENEWAL' AND endorse_date BETWEEN '2025-07-01' AND '2025-07-31'`)).toEqual({ n: 20 });
    // 10 revived for the demo, besides those the book revived in that month by chance
    expect((await q(`SELECT count(*)::int AS n FROM contract WHERE status = 'REVIVE' AND revival_date BETWEEN '2025-07-01' AND '2025-07-31'`)).n).toBeGreaterThanOrEqual(10);
    expect(await q(`SELECT array_agg(DISTINCT settle_month ORDER BY settle_month) AS m FROM recruit_ledger`)).toEqual({ m: ['202307', '202407'] });
  });

  it('is reproducible: the same seed gives the same book, another seed a different one', async () => {
    await generateDemoBook(second.pool, OPTIONS);
    await generateDemoBook(third.pool, { ...OPTIONS, seed: 'other' });
    const [a, b, c] = await Promise.all([bookDigest(first), bookDigest(second), bookDigest(third)]);
    expect(b).toEqual(a);
    expect(c[5]).not.toEqual(a[5]);
  });

  it('refuses to run when agents exist unless forced; forced, it adds a book with new ids', async () => {
    await expect(generateDemoBook(second.pool, { ...OPTIONS, contracts: 10 })).rejects.toBeInstanceOf(
      DemoDataExistsError,
    );
    const more = await generateDemoBook(second.pool, { ...OPTIONS, contracts: 100, force: true });
    // after the first book's 400 agents + 4 recruits and 20,000 contracts + 200 of commission year 6+
    expect(more.agentIds).toEqual({ first: 405, last: 808 });
    expect(more.contractIds).toEqual({ first: 20_201, last: 20_300 });
  });

  it('runs as a command: migrates, loads, and leaves a populated database alone with exit code 0', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((msg: string) => void lines.push(msg));
    const errors = vi.spyOn(console, 'error').mockImplementation((msg: string) => void lines.push(msg));
    try {
      expect(
        await runDemoDataCli(['--', '--agents', '5', '--contracts', '100', '--database-url', third.url]),
      ).toBe(0);
      expect(lines.at(-1)).toBe(
        '[demo-data] nothing loaded: the database already has 404 agents; pass --force to add a demo book anyway',
      );
      expect(await runDemoDataCli(['--agents', 'x', '--database-url', third.url])).toBe(1);
      expect(lines).toContain("[demo-data] failed: --agents must be a non-negative integer, got 'x'");
    } finally {
      spy.mockRestore();
      errors.mockRestore();
    }
  });
});
