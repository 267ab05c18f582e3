/**
 * Throughput of the hottest domain rules on one core.
 *   pnpm exec tsx bench/domain-bench.ts [count]      (from the repo root; default 1,000,000)
 * Inputs are generated and parsed to Decimals before timing, as the batch parses each row once.
 * 'maintain row' / 'maintain fast': calcMaintain's whole per-contract domain work, through the
 * Decimal API the caller uses today and through the formatted-string API (rows/s = contracts/s).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  D,
  calcCommission,
  calcCommissionFormatted,
  calcPaymentTax,
  daysInMonth,
  formatMoney,
  formatRate,
  lookupCommissionRate,
  lookupPayoutRate,
  maintainEligibility,
  reconcileLedgerAmount,
  reconcileLedgerMoney,
  type CommissionRateRow,
  type Dec,
  type PayoutRuleRow,
} from '../packages/domain/src/index.js';

const COUNT = Number(process.argv[2] ?? 1_000_000);

/*
 * The inputs fill a heap of several hundred MB; a full collection left over from building them
 * would otherwise land in whichever case runs next. Each case starts after an explicit collection.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Deterministic LCG so every run measures the same inputs. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

function money(next: () => number, maxWon: number): Dec {
  const cents = (next() % (maxWon * 100)) + 1;
  return new D(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
}

function rate(next: () => number, maxPct: number): Dec {
  const tenThousandths = next() % (maxPct * 10_000);
  return new D(tenThousandths).div(10_000);
}

/** Wall time and the process's CPU time: on a shared machine the CPU figure is the one-core rate. */
function time(label: string, run: () => void): void {
  collectGarbage();
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  run();
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const rate = (ms: number) => Math.round((COUNT / ms) * 1000).toLocaleString('en-US');
  console.log(
    `${label.padEnd(13)} ${COUNT.toLocaleString('en-US')} in ${wallMs.toFixed(0)} ms wall = ${rate(wallMs)} ops/s; ` +
      `${cpuMs.toFixed(0)} ms CPU = ${rate(cpuMs)} ops/s per CPU-second`,
  );
}

const next = rng(42);
const recruitInputs = Array.from({ length: COUNT }, () => ({
  premium: money(next, 5_000_000),
  companyRate: rate(next, 1200),
  payoutRate: next() % 10 === 0 ? undefined : rate(next, 100),
}));
// The batch reads numeric columns from pg as strings: the same inputs in that form.
const recruitStrings = recruitInputs.map((i) => ({
  premium: i.premium.toFixed(2),
  companyRate: i.companyRate.toFixed(4),
  payoutRate: i.payoutRate?.toFixed(4),
}));
const taxTypes = ['BUSINESS_INCOME', 'OTHER_INCOME'] as const;
const vatTypes = ['NONE', 'EXEMPT', 'TAXABLE'] as const;
const paymentInputs = Array.from({ length: COUNT }, () => ({
  amount: money(next, 50_000_000),
  taxType: taxTypes[next() % 2] as string,
  vatType: vatTypes[next() % 3] as string,
}));

/*
 * calcMaintain's per-contract work (services/ledger-settlement: steps/calc-maintain.ts decide, then
 * calc/ledger-row.ts): eligibility in one settle month; for eligible contracts the rate lookups as of
 * the contract date, the commission, three formatted amounts and the reconcile against the insurer
 * figure. Inputs are what pg and the per-run pricing cache hold: strings for the contract, Decimals
 * for the rate rows.
 */
const SETTLE_MONTH = '202506';
const PAY_CYCLES = ['MONTHLY', 'MONTHLY', 'MONTHLY', 'MONTHLY', 'MONTHLY', 'MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SINGLE'];
const INSURANCE_TYPES = ['LIFE', 'NON_LIFE', 'HEALTH'];
const PRODUCTS = 200;
const GRADES = 8;
const THRESHOLD = '1.00';

interface BenchRate extends CommissionRateRow {
  ratePct: Dec;
}
interface BenchPayout extends PayoutRuleRow {
  payoutPct: Dec;
}

function isoDate(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Two versions per key: the first 2019-01-01..2022-07-01, the second from then on (half-open). */
function versions<T>(make: (from: string, to: string | null, version: number) => T): T[] {
  return [make('2019-01-01', '2022-07-01', 1), make('2022-07-01', null, 2)];
}

const ratesByProduct = new Map<number, BenchRate[]>();
for (let productId = 1; productId <= PRODUCTS; productId++) {
  const rows: BenchRate[] = [];
  for (let year = 1; year <= 5; year++) {
    rows.push(
      ...versions((effectiveFrom, effectiveTo, version) => ({
        productId,
        commissionYear: year,
        ratePct: new D(next() % 8_000_000).div(10_000),
        payMethodCond: null,
        minPremium: next() % 20 === 0 ? new D('10000.00') : null,
        effectiveFrom,
        effectiveTo,
        version,
      })),
    );
  }
  ratesByProduct.set(productId, rows);
}
const payoutsByKey = new Map<string, BenchPayout[]>();
for (let gradeId = 1; gradeId <= GRADES; gradeId++) {
  for (const insuranceType of INSURANCE_TYPES) {
    const rows: BenchPayout[] = [];
    for (let year = 1; year <= 5; year++) {
      rows.push(
        ...versions((effectiveFrom, effectiveTo, version) => ({
          gradeId,
          insuranceType,
          commissionYear: year,
          payoutPct: new D(next() % 1_000_000).div(10_000),
          payMethodCond: null,
          effectiveFrom,
          effectiveTo,
          version,
        })),
      );
    }
    payoutsByKey.set(`${gradeId}|${insuranceType}`, rows);
  }
}
// Rates are formatted once per run by the caller's pricing cache, not per row.
for (const rows of ratesByProduct.values()) for (const r of rows) formatRate(r.ratePct);

/** Contracts of the maintain SQL window (11..61 months before the month end), as pg returns them. */
const maintainContracts = Array.from({ length: COUNT }, () => {
  const monthsBack = 11 + (next() % 51);
  const index = 2025 * 12 + 5 - monthsBack;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const day = 1 + (next() % 28);
  const productId = 1 + (next() % PRODUCTS);
  const premium = money(next, 300_000).toFixed(2);
  return {
    status: next() % 20 === 0 ? 'REVIVE' : 'ACTIVE',
    contractDate: isoDate(year, month, Math.min(next() % 10 === 0 ? 31 : day, daysInMonth(year, month))),
    payCycle: PAY_CYCLES[next() % PAY_CYCLES.length]!,
    premium,
    productId,
    gradeId: 1 + (next() % GRADES),
    insuranceType: INSURANCE_TYPES[productId % INSURANCE_TYPES.length]!,
    reported: next() % 3 === 0 ? premium : null,
  };
});

type MaintainContract = (typeof maintainContracts)[number];

/** What a ledger row gets: year, three amounts, reconcile status, diff, calc_basis reconcile figures. */
type RowFigures = [number, string, string, string, string, string | null, string[] | null];

/** The company rate and payout rule of a maintain contract's commission year (both variants look them up alike). */
function ratesOf(c: MaintainContract, commissionYear: number) {
  const rate = lookupCommissionRate(ratesByProduct.get(c.productId) ?? [], {
    productId: c.productId,
    commissionYear,
    date: c.contractDate,
    payMethod: c.payCycle,
    premium: c.premium,
  });
  const payout = lookupPayoutRate(payoutsByKey.get(`${c.gradeId}|${c.insuranceType}`) ?? [], {
    gradeId: c.gradeId,
    insuranceType: c.insuranceType,
    commissionYear,
    date: c.contractDate,
    payMethod: c.payCycle,
  });
  return { rate, payout };
}

/** The previous caller: calcCommission's Decimals formatted by formatMoney. */
function maintainRow(c: MaintainContract): RowFigures | undefined {
  const verdict = maintainEligibility(c, SETTLE_MONTH);
  if (!verdict.eligible) return undefined;
  const { commissionYear } = verdict;
  const { rate, payout } = ratesOf(c, commissionYear);
  const amounts = calcCommission({ premium: c.premium, companyRate: rate?.ratePct ?? null, payoutRate: payout?.payoutPct ?? null });
  const recon = reconcileLedgerAmount(c.reported, amounts.companyAmount, THRESHOLD);
  // ledger-row.ts formats the reported figure and the diff for calc_basis and the diff again for the row.
  const basis = recon.diff === null ? null : [formatMoney(c.reported!), formatMoney(recon.diff)];
  const diff = recon.diff === null ? null : formatMoney(recon.diff);
  const money = [formatMoney(amounts.companyAmount), formatMoney(amounts.agentAmount), formatMoney(amounts.tax)] as const;
  return [commissionYear, ...money, recon.status, diff, basis];
}

/** The fastest path (ledger-row.ts today): amounts and the reconcile diff come out formatted, no Decimal per row. */
function maintainRowFast(c: MaintainContract): RowFigures | undefined {
  const verdict = maintainEligibility(c, SETTLE_MONTH);
  if (!verdict.eligible) return undefined;
  const { commissionYear } = verdict;
  const { rate, payout } = ratesOf(c, commissionYear);
  const amounts = calcCommissionFormatted({
    premium: c.premium,
    companyRate: rate?.ratePct ?? null,
    payoutRate: payout?.payoutPct ?? null,
  });
  const recon = reconcileLedgerMoney(c.reported, amounts.companyAmount, THRESHOLD);
  const basis = recon.diff === null ? null : [formatMoney(c.reported!), recon.diff];
  return [commissionYear, amounts.companyAmount, amounts.agentAmount, amounts.tax, recon.status, recon.diff, basis];
}

// Both paths must agree on every row before either is timed.
for (const c of maintainContracts.slice(0, 100_000)) {
  if (JSON.stringify(maintainRow(c)) !== JSON.stringify(maintainRowFast(c))) throw new Error(`maintain paths disagree on ${JSON.stringify(c)}`);
}

// Warm-up so the JIT has compiled every path before timing.
for (let i = 0; i < 50_000; i++) {
  calcCommission(recruitInputs[i % COUNT]!);
  calcCommission(recruitStrings[i % COUNT]!);
  calcPaymentTax(paymentInputs[i % COUNT]!);
  maintainRow(maintainContracts[i % COUNT]!);
  maintainRowFast(maintainContracts[i % COUNT]!);
}

let checksum = new D(0);
time('recruit', () => {
  for (const input of recruitInputs) checksum = calcCommission(input).tax;
});
time('recruit str', () => {
  for (const input of recruitStrings) checksum = calcCommission(input).tax;
});
time('payment tax', () => {
  for (const input of paymentInputs) checksum = calcPaymentTax(input).net;
});
let eligible = 0;
time('maintain row', () => {
  for (const c of maintainContracts) if (maintainRow(c) !== undefined) eligible++;
});
time('maintain fast', () => {
  for (const c of maintainContracts) maintainRowFast(c);
});
console.log(`(maintain: ${eligible.toLocaleString('en-US')} of ${COUNT.toLocaleString('en-US')} contracts eligible)`);
console.log(`(last result ${checksum.toFixed(2)}; node ${process.version})`);
