import { sql } from 'kysely';
import {
  addMonths,
  calcDifferentialChargeback,
  formatMoney,
  inForceOn,
  lastDayOfMonth,
  retentionCheckpoint,
  sum,
  toDec,
  type ChargebackGradeRow,
} from '@csp/domain';
import type { ServiceApp } from '@csp/service-kit';
import type { TestContext } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exposureByContract } from '../src/refresh/exposure.repository.js';
import { countCohort } from '../src/retention/retention.repository.js';
import { addAgent, addContract, addLedger, addOrg, addProduct, createAnalyticsContext } from './helpers.js';

/*
 * The refresh computes rule 7 exposure and retention in SQL for speed. These tests generate contracts
 * (month-end dates, lapses and revivals on the boundaries, every status, three product categories,
 * bands that are category-specific, expired, not yet valid or inactive) and prove the SQL equals the
 * domain functions (calcDifferentialChargeback, inForceOn, retentionCheckpoint) row by row.
 */

let ctx: TestContext<ServiceApp>;

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

interface Generated {
  contractId: number;
  agentId: number;
  category: string | null;
  status: 'ACTIVE' | 'LAPSE' | 'REVIVE' | 'TERMINATE';
  contractDate: string;
  lapseDate: string | null;
  revivalDate: string | null;
}

const contracts: Generated[] = [];
const ledgers: Array<{ contractId: number; agentId: number; month: string; amount: string }> = [];
let agents: number[] = [];
const R = rng(20241130);

/** A date from January `fromYear` to the end of `toMonth` ('YYYYMM'). */
function randomDate(fromYear: number, toMonth: string): string {
  const y = R.int(fromYear, Number(toMonth.slice(0, 4)));
  const m = y === Number(toMonth.slice(0, 4)) ? R.int(1, Number(toMonth.slice(4))) : R.int(1, 12);
  const last = Number(lastDayOfMonth(`${y}${String(m).padStart(2, '0')}`).slice(8));
  // month ends and the days around them are where month arithmetic goes wrong: weight them
  const d = R.next() < 0.4 ? R.int(Math.max(1, last - 3), last) : R.int(1, last);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

async function addGenerated(productIds: Record<string, number>, contractDate: string, anchor: string): Promise<void> {
  const category = R.pick(['LIFE', 'SAVINGS', 'NONE'] as const);
  const agentId = R.pick(agents);
  const status = R.pick(['ACTIVE', 'ACTIVE', 'ACTIVE', 'LAPSE', 'LAPSE', 'REVIVE', 'TERMINATE'] as const);
  let lapseDate: string | null = null;
  let revivalDate: string | null = null;
  if (status === 'LAPSE' || status === 'REVIVE') {
    // around the anchor (the as-of date or a checkpoint), sometimes exactly on it
    lapseDate = R.next() < 0.2 ? anchor : addMonths(anchor, R.int(-14, 6));
    if (lapseDate < contractDate) lapseDate = contractDate;
    if (status === 'REVIVE') revivalDate = R.next() < 0.2 ? anchor : addMonths(lapseDate, R.int(0, 8));
  }
  const contractId = await addContract(ctx.db, { agentId, productId: productIds[category]!, contractDate, status, lapseDate, revivalDate });
  contracts.push({ contractId, agentId, category: category === 'NONE' ? null : category, status, contractDate, lapseDate, revivalDate });
}

beforeAll(async () => {
  ctx = await createAnalyticsContext();
  const hq = await addOrg(ctx.db, 'HQ', 'HQ', null, 1);
  const teams = [await addOrg(ctx.db, 'T1', 'TM', hq, 2), await addOrg(ctx.db, 'T2', 'TM', hq, 2)];
  agents = [];
  for (let i = 0; i < 4; i++) agents.push(await addAgent(ctx.db, `A${i}`, teams[i % 2]!, 1));
  const productIds = { LIFE: await addProduct(ctx.db, 'L', 'LIFE'), SAVINGS: await addProduct(ctx.db, 'S', 'SAVINGS'), NONE: await addProduct(ctx.db, 'N', null) };
  await ctx.db
    .insertInto('chargeback_grade')
    .values([
      { product_category: 'LIFE', months_from: 13, months_to: 24, percent: '60', effective_from: '2020-01-01' },
      { product_category: 'LIFE', months_from: 13, months_to: 30, percent: '70', effective_from: '2021-01-01' }, // newer LIFE band wins 13-24
      { product_category: 'SAVINGS', months_from: 1, months_to: 12, percent: '90', effective_from: '2024-07-01' }, // not yet valid
      { product_category: 'SAVINGS', months_from: 37, months_to: 84, percent: '15', effective_from: '2010-01-01', effective_to: '2024-06-29' }, // expired
      { product_category: 'ALL', months_from: 0, months_to: 0, percent: '100', effective_from: '2000-01-01', is_active: false },
      { product_category: 'ALL', months_from: 85, months_to: 120, percent: '5', effective_from: '2023-01-01' }, // ALL = general, newer than the seed
    ])
    .execute();

  // exposure book: contracts of any age up to the as-of date 2024-06-30, ledgers before and after June
  for (let i = 0; i < 300; i++) await addGenerated(productIds, randomDate(2014, '202406'), '2024-06-30');
  for (const c of contracts) {
    if (R.next() < 0.1) continue; // never paid
    const month = (d: string) => d.slice(0, 7).replace('-', '');
    const recruitMonth = month(c.contractDate);
    const amount = () => `${R.int(0, 99999)}.${String(R.int(0, 99)).padStart(2, '0')}`;
    ledgers.push({ contractId: c.contractId, agentId: c.agentId, month: recruitMonth, amount: amount() });
    await addLedger(ctx.db, 'recruit', c.contractId, c.agentId, recruitMonth, ledgers.at(-1)!.amount);
    for (const m of R.next() < 0.5 ? ['202401', '202406', '202407'] : []) {
      const agentId = R.next() < 0.3 ? R.pick(agents) : c.agentId; // a successor sometimes
      ledgers.push({ contractId: c.contractId, agentId, month: m, amount: amount() });
      await addLedger(ctx.db, 'maintain', c.contractId, agentId, m, ledgers.at(-1)!.amount);
    }
  }
});

afterAll(async () => {
  await ctx?.close();
});

describe('exposure SQL equals rule 7 (calcDifferentialChargeback) per contract and agent', () => {
  it('on 300 generated contracts as of 2024-06-30', async () => {
    const asOf = '2024-06-30';
    const { rows } = await sql<{ contract_id: number; agent_id: number; months: number; paid: string; exposure: string }>`
      ${exposureByContract('202406')}`.execute(ctx.db);
    const grades = await ctx.db.selectFrom('chargeback_grade').selectAll().orderBy('cb_grade_id').execute();
    const gradeRows: ChargebackGradeRow[] = grades.map((g) => ({
      gradeId: g.cb_grade_id,
      productCategory: g.product_category,
      monthsFrom: g.months_from,
      monthsTo: g.months_to,
      percent: g.percent,
      effectiveFrom: g.effective_from,
      effectiveTo: g.effective_to,
      isActive: g.is_active,
    }));

    const expected = new Map<string, { months: number; paid: string; exposure: string }>();
    const paid = new Map<string, string[]>();
    for (const l of ledgers) {
      if (l.month > '202406') continue;
      const key = `${l.contractId}:${l.agentId}`;
      paid.set(key, [...(paid.get(key) ?? []), l.amount]);
    }
    for (const [key, amounts] of paid) {
      const c = contracts.find((x) => x.contractId === Number(key.split(':')[0]))!;
      if (!inForceOn(c, asOf)) continue;
      const total = formatMoney(sum(amounts.map((a) => toDec(a, 'amount'))));
      const r = calcDifferentialChargeback({ grades: gradeRows, productCategory: c.category, contractDate: c.contractDate, terminationDate: asOf, originalCommission: total });
      expected.set(key, { months: r.monthsElapsed, paid: total, exposure: formatMoney(r.chargebackAmount) });
    }
    const actual = new Map(rows.map((r) => [`${r.contract_id}:${r.agent_id}`, { months: r.months, paid: formatMoney(r.paid), exposure: formatMoney(r.exposure) }]));
    expect(actual.size).toBeGreaterThan(100);
    expect(actual).toEqual(expected);
  });
});

describe('retention SQL equals inForceOn at retentionCheckpoint', () => {
  it('on generated cohorts with lapses and revivals around the 13- and 25-month checkpoints', async () => {
    const productIds = Object.fromEntries(
      (await ctx.db.selectFrom('product').select(['product_code', 'product_id']).execute()).map((p) => [
        p.product_code === 'L' ? 'LIFE' : p.product_code === 'S' ? 'SAVINGS' : 'NONE',
        p.product_id,
      ]),
    );
    const before = contracts.length;
    for (let i = 0; i < 120; i++) {
      const day = R.pick(['01', '15', '28', '29', '30', '31']);
      const date = `2023-01-${day}`;
      await addGenerated(productIds, date, retentionCheckpoint(date, R.pick([13, 25])));
    }
    const cohort = contracts.slice(before).concat(contracts.slice(0, before).filter((c) => c.contractDate.startsWith('2023-01')));
    for (const horizon of [13, 25]) {
      const counts = await countCohort(ctx.db, '202301', horizon);
      const retained = (cs: Generated[]) => cs.filter((c) => inForceOn(c, retentionCheckpoint(c.contractDate, horizon))).length;
      expect(counts.find((c) => c.scope === 'TOTAL')).toMatchObject({ cohort_count: cohort.length, retained_count: retained(cohort) });
      for (const agentId of agents) {
        const mine = cohort.filter((c) => c.agentId === agentId);
        const row = counts.find((c) => c.scope === 'AGENT' && c.agent_id === agentId);
        if (mine.length >= 10) expect(row).toMatchObject({ cohort_count: mine.length, retained_count: retained(mine) });
        else expect(row).toBeUndefined();
      }
    }
  });
});
