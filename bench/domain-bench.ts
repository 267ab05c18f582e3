/**
 * Throughput of the two hottest domain rules on one core.
 *   pnpm exec tsx bench/domain-bench.ts [count]      (from the repo root; default 1,000,000)
 * Inputs are generated and parsed to Decimals before timing, as the batch parses each row once.
 */
import { D, calcCommission, calcPaymentTax, type Dec } from '../packages/domain/src/index.js';

const COUNT = Number(process.argv[2] ?? 1_000_000);

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
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  run();
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const rate = (ms: number) => Math.round((COUNT / ms) * 1000).toLocaleString('en-US');
  console.log(
    `${label.padEnd(12)} ${COUNT.toLocaleString('en-US')} in ${wallMs.toFixed(0)} ms wall = ${rate(wallMs)} ops/s; ` +
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

// Warm-up so the JIT has compiled every path before timing.
for (let i = 0; i < 50_000; i++) {
  calcCommission(recruitInputs[i % COUNT]!);
  calcCommission(recruitStrings[i % COUNT]!);
  calcPaymentTax(paymentInputs[i % COUNT]!);
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
console.log(`(last result ${checksum.toFixed(2)}; node ${process.version})`);
