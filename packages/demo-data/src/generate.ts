import type pg from 'pg';
import {
  AGENT_COLUMNS,
  CHARGEBACK_RULE_COLUMNS,
  COMMISSION_RATE_COLUMNS,
  COMPANY_COLUMNS,
  GRADE_WORDS,
  ORG_COLUMNS,
  OVERRIDE_RULE_COLUMNS,
  PAYOUT_RULE_COLUMNS,
  PRODUCT_COLUMNS,
  agentRows,
  chargebackRuleRows,
  commissionRateRows,
  companyRows,
  orgRows,
  overrideRuleRows,
  payoutRuleRows,
  planStructure,
  productRows,
} from './book-plan.js';
import { addMonths, isoDate, parseIsoDate, settleMonthOf } from './calendar.js';
import { CONTRACT_COLUMNS, HISTORY_MONTHS, SUCCESSION_COLUMNS, contractStream } from './contract-stream.js';
import { copyRows } from '@csp/db';
import { createFieldCipher, loadServiceConfig } from '@csp/service-kit';
import { seedCarrierProfiles } from './carrier-files.js';
import { bankAccount } from './names.js';
import { addOtherCommissionDemo, type OtherCommissionDemoResult } from './other-commissions.js';
import { createPrng } from './prng.js';

export interface DemoBookOptions {
  agents: number;
  contracts: number;
  seed: string | number;
  /** 'YYYY-MM-DD' (default: today in UTC). Contract dates lie in the 60 months before its month. */
  today?: string;
  /** Add a book although agents exist already. */
  force?: boolean;
  /**
   * The services' ENCRYPT_KEY: the agents' account numbers are stored encrypted with it (the kit's
   * cipher). Default: ENCRYPT_KEY of the environment, else the kit's development default.
   */
  encryptKey?: string;
  log?: (message: string) => void;
}

export interface DemoBookResult {
  seed: string;
  today: string;
  /** The latest complete settle month (the month before `today`). */
  lastClosedMonth: string;
  firstContractMonth: string;
  orgs: number;
  branches: number;
  teams: number;
  agents: number;
  companies: number;
  products: number;
  commissionRates: number;
  payoutRules: number;
  overrideRules: number;
  chargebackRules: number;
  contracts: number;
  lapses: number;
  successions: number;
  /** What the other commission types need (issue 16): rules, recruits, legacy contracts, renewals, revivals. */
  otherCommissions: OtherCommissionDemoResult;
  /** Carriers given an intake profile and field mappings (those that had none). */
  carrierProfiles: number;
  /** Every agent of the book, the recruits (after the planned agents) included. */
  agentIds: { first: number; last: number };
  /** The main book's contracts (the legacy contracts follow them). */
  contractIds: { first: number; last: number };
  timings: { masterMs: number; contractsMs: number; commitMs: number; analyzeMs: number; totalMs: number };
}

export class DemoDataExistsError extends Error {
  constructor(agents: number) {
    super(`the database already has ${agents} agents; pass --force to add a demo book anyway`);
    this.name = 'DemoDataExistsError';
  }
}

const SEQUENCES: Array<[table: string, column: string]> = [
  ['organization', 'org_id'],
  ['agent', 'agent_id'],
  ['insurance_company', 'company_id'],
  ['product', 'product_id'],
  ['contract', 'contract_id'],
];

/**
 * Every reference of the bulk rows points at rows this transaction has just written, so the
 * per-row foreign-key triggers only cost time (a third of a 1M-row load). Needs a superuser (the
 * local and test databases); elsewhere the load simply runs with the checks.
 */
async function skipForeignKeyChecks(client: pg.PoolClient): Promise<boolean> {
  await client.query('SAVEPOINT fk_checks');
  try {
    await client.query("SET LOCAL session_replication_role = 'replica'");
    await client.query('RELEASE SAVEPOINT fk_checks');
    return true;
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT fk_checks');
    return false;
  }
}

async function maxId(client: pg.PoolClient, table: string, column: string): Promise<number> {
  const { rows } = await client.query<{ max: string | number | null }>(
    `SELECT max(${column}) AS max FROM ${table}`,
  );
  return Number(rows[0]?.max ?? 0);
}

async function isEmpty(client: pg.PoolClient, table: string): Promise<boolean> {
  const { rows } = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
  return rows.length === 0;
}

/** Every agent of the id range gets a bank code and an account number encrypted with the services' key. */
async function giveBankAccounts(client: pg.PoolClient, first: number, last: number, encryptKey: string | undefined): Promise<void> {
  const key = loadServiceConfig('demo-data', {}, { NODE_ENV: process.env.NODE_ENV, ENCRYPT_KEY: encryptKey ?? process.env.ENCRYPT_KEY }).ENCRYPT_KEY;
  const cipher = createFieldCipher(key);
  const ids: number[] = [];
  const banks: string[] = [];
  const accounts: string[] = [];
  for (let id = first; id <= last; id++) {
    const { bankCode, accountNo } = bankAccount(id);
    ids.push(id);
    banks.push(bankCode);
    accounts.push(cipher.encrypt(accountNo));
  }
  await client.query(
    `UPDATE agent a SET bank_code = v.bank_code, account_no = v.account_no
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(agent_id, bank_code, account_no)
      WHERE a.agent_id = v.agent_id`,
    [ids, banks, accounts],
  );
}

/** The seeded grades named in Korean (GRADE_WORDS); a grade renamed before keeps its name. */
async function nameGradesInKorean(client: pg.PoolClient): Promise<void> {
  await client.query(
    `UPDATE grade g SET grade_name = v.name, description = v.description, updated_at = now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS v(code, seeded, name, description)
      WHERE g.grade_code = v.code AND g.grade_name = v.seeded`,
    [GRADE_WORDS.map((g) => g.code), GRADE_WORDS.map((g) => g.seeded), GRADE_WORDS.map((g) => g.name), GRADE_WORDS.map((g) => g.description)],
  );
}

function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Loads a reproducible demo book (same seed, counts and `today` -> same rows) in one transaction:
 * an HQ/BR/TM tree, agents, 3-5 companies with products, commission rates for years 1..5, payout
 * rules per grade/insurance type/year, override rules (some capped), chargeback rules, contracts
 * over five years with ~8 % lapses, and a few hundred successions. Bulk rows go through COPY.
 * The seeded grades are named in Korean. Needs the migrated schema (V010/V011). Payout and override rules are
 * added only when none exist.
 */
export async function generateDemoBook(pool: pg.Pool, options: DemoBookOptions): Promise<DemoBookResult> {
  if (!Number.isInteger(options.agents) || options.agents < 3)
    throw new RangeError('agents must be an integer >= 3');
  if (!Number.isInteger(options.contracts) || options.contracts < 0)
    throw new RangeError('contracts must be an integer >= 0');
  const log = options.log ?? (() => {});
  const seed = String(options.seed);
  const today = options.today ?? utcToday();
  const todayParts = parseIsoDate(today);
  const currentMonth = { year: todayParts.year, month: todayParts.month };
  const started = performance.now();
  const rng = createPrng(`${seed}|${options.agents}|${options.contracts}`);

  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // One generator at a time: a second one waits here, then sees the first one's agents.
    await client.query('LOCK TABLE agent IN SHARE ROW EXCLUSIVE MODE');
    const existing = Number(
      (await client.query<{ n: string }>('SELECT count(*) AS n FROM agent')).rows[0]!.n,
    );
    if (existing > 0 && !options.force) throw new DemoDataExistsError(existing);

    const base = {
      org: await maxId(client, 'organization', 'org_id'),
      agent: await maxId(client, 'agent', 'agent_id'),
      company: await maxId(client, 'insurance_company', 'company_id'),
      product: await maxId(client, 'product', 'product_id'),
    };
    const contractBase = await maxId(client, 'contract', 'contract_id');
    const plan = planStructure(rng, options.agents, base);
    const joinDate = isoDate(addMonths(currentMonth, -(HISTORY_MONTHS + 12)), 1);
    const leaveDate = isoDate(addMonths(currentMonth, -1), 1);

    await nameGradesInKorean(client);
    await copyRows(client, 'organization', ORG_COLUMNS, orgRows(plan));
    await copyRows(client, 'agent', AGENT_COLUMNS, agentRows(rng, plan, joinDate, leaveDate));
    await copyRows(client, 'insurance_company', COMPANY_COLUMNS, companyRows(plan));
    await copyRows(client, 'product', PRODUCT_COLUMNS, productRows(plan));
    const commissionRates = await copyRows(
      client,
      'commission_rate',
      COMMISSION_RATE_COLUMNS,
      commissionRateRows(rng, plan),
    );
    const payoutRules = (await isEmpty(client, 'payout_rule'))
      ? await copyRows(client, 'payout_rule', PAYOUT_RULE_COLUMNS, payoutRuleRows(rng))
      : 0;
    const overrideRules = (await isEmpty(client, 'override_rule'))
      ? await copyRows(client, 'override_rule', OVERRIDE_RULE_COLUMNS, overrideRuleRows())
      : 0;
    const chargebackRules = await copyRows(
      client,
      'chargeback_rule',
      CHARGEBACK_RULE_COLUMNS,
      chargebackRuleRows(rng, plan),
    );
    const masterMs = performance.now() - started;
    log(
      `master data: ${plan.orgs.length} orgs, ${plan.agents.length} agents, ${plan.products.length} products (${Math.round(masterMs)} ms)`,
    );

    const contractsStarted = performance.now();
    const fkChecksSkipped = await skipForeignKeyChecks(client);
    const stream = contractStream(rng, {
      plan,
      count: options.contracts,
      firstId: contractBase + 1,
      currentMonth,
      successionTarget: Math.min(300, Math.floor(options.contracts / 100)),
    });
    await copyRows(client, 'contract', CONTRACT_COLUMNS, stream.rows());
    await copyRows(client, 'contract_succession', SUCCESSION_COLUMNS, stream.successions);
    const otherCommissions = await addOtherCommissionDemo(client, createPrng(`${seed}|${options.agents}|${options.contracts}|other`), {
      plan,
      currentMonth,
      contracts: { first: contractBase + 1, last: contractBase + stream.stats.contracts },
      firstRecruitId: base.agent + plan.agents.length + 1,
      seed,
    });
    const contractsMs = performance.now() - contractsStarted;
    log(
      `other commission types: ${otherCommissions.rules} rules, ${otherCommissions.recruits} recruits, ` +
        `${otherCommissions.legacyContracts} contracts of year 6+, ${otherCommissions.renewals} renewals, ` +
        `${otherCommissions.revivals} revivals, ${otherCommissions.historyRows} recruit history rows`,
    );
    log(
      `contracts: ${stream.stats.contracts} (${stream.stats.lapses} lapsed, ${stream.stats.successions} successions) ` +
        `in ${Math.round(contractsMs)} ms${fkChecksSkipped ? '' : ' (with per-row foreign-key checks)'}`,
    );

    await giveBankAccounts(client, base.agent + 1, base.agent + plan.agents.length + otherCommissions.recruits, options.encryptKey);

    const commitStarted = performance.now();
    for (const [table, column] of SEQUENCES) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), greatest((SELECT max(${column}) FROM ${table}), 1))`,
      );
    }
    await client.query('COMMIT');
    const commitMs = performance.now() - commitStarted;
    const carrierProfiles = await seedCarrierProfiles(
      pool,
      plan.companies.map((c) => c.code),
    );

    const analyzeStarted = performance.now();
    await client.query(
      'ANALYZE organization, agent, insurance_company, product, contract, contract_succession, commission_rate, payout_rule, override_rule, chargeback_rule, contract_endorsement, recruit_ledger',
    );
    const analyzeMs = performance.now() - analyzeStarted;

    return {
      seed,
      today,
      lastClosedMonth: settleMonthOf(addMonths(currentMonth, -1)),
      firstContractMonth: settleMonthOf(addMonths(currentMonth, -HISTORY_MONTHS)),
      orgs: plan.orgs.length,
      branches: plan.orgs.filter((o) => o.type === 'BR').length,
      teams: plan.teams.length,
      agents: plan.agents.length,
      companies: plan.companies.length,
      products: plan.products.length,
      commissionRates,
      payoutRules,
      overrideRules,
      chargebackRules,
      contracts: stream.stats.contracts,
      lapses: stream.stats.lapses,
      successions: stream.stats.successions,
      otherCommissions,
      carrierProfiles,
      agentIds: { first: base.agent + 1, last: base.agent + plan.agents.length + otherCommissions.recruits },
      contractIds: { first: contractBase + 1, last: contractBase + stream.stats.contracts },
      timings: { masterMs, contractsMs, commitMs, analyzeMs, totalMs: performance.now() - started },
    };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
