/**
 * What differs between an agent's real and simulated explain (pure): a total's difference as a decimal
 * string computed on the digits (never through a JS number), and which lines of one side have no equal
 * line on the other.
 */

type Line = Record<string, unknown>;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const SCALE = 2;

function toCents(text: string): bigint | undefined {
  const m = DECIMAL.exec(text.trim());
  if (!m) return undefined;
  const fraction = (m[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE);
  const cents = BigInt(`${m[2]}${fraction}`);
  return m[1] === '-' ? -cents : cents;
}

function fromCents(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(SCALE + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`;
}

/** simulated - real as money text (`"12.50"`, `"-3.00"`), or undefined when both are equal or absent. */
export function totalDiff(real: string | null | undefined, simulated: string | null | undefined): string | undefined {
  if (real == null && simulated == null) return undefined;
  const a = toCents(real ?? '0');
  const b = toCents(simulated ?? '0');
  if (a === undefined || b === undefined) return real === simulated ? undefined : '0.00';
  return a === b ? undefined : fromCents(b - a);
}

const RUN_IDS = new Set(['ledgerId', 'osId', 'basis']);

/** A line's identity without the ids the two runs number differently. */
function lineKey(line: Line): string {
  return JSON.stringify(
    Object.keys(line)
      .filter((k) => !RUN_IDS.has(k))
      .sort()
      .map((k) => [k, line[k]]),
  );
}

/** Indexes of the lines of `side` that have no equal line on `other` (each line matched once). */
export function changedLines(side: readonly Line[], other: readonly Line[]): Set<number> {
  const pool = new Map<string, number>();
  for (const line of other) {
    const key = lineKey(line);
    pool.set(key, (pool.get(key) ?? 0) + 1);
  }
  const changed = new Set<number>();
  side.forEach((line, i) => {
    const key = lineKey(line);
    const left = pool.get(key) ?? 0;
    if (left > 0) pool.set(key, left - 1);
    else changed.add(i);
  });
  return changed;
}

/** The columns whose value differs between the two sides' lines at the same place: shown first. */
export function changedKeys(left: readonly Line[], right: readonly Line[]): Set<string> {
  const keys = new Set<string>();
  const n = Math.min(left.length, right.length);
  for (let i = 0; i < n; i++) {
    for (const key of new Set([...Object.keys(left[i]!), ...Object.keys(right[i]!)])) {
      if (key === 'ledgerId' || key === 'osId' || key === 'basis') continue;
      if (JSON.stringify(left[i]![key] ?? null) !== JSON.stringify(right[i]![key] ?? null)) keys.add(key);
    }
  }
  return keys;
}
