import { parseSettleMonth } from './calendar.js';

export interface SuccessionRow {
  successionId: number;
  contractId: number;
  fromAgentId: number;
  toAgentId: number;
  /** YYYYMM: the first settle month the successor receives the maintain commission. */
  effectiveMonth: string;
  /** ACTIVE; anything else (cancelled) is ignored. */
  status: string;
}

function isLater(a: SuccessionRow, b: SuccessionRow): boolean {
  return a.effectiveMonth > b.effectiveMonth || (a.effectiveMonth === b.effectiveMonth && a.successionId > b.successionId);
}

function latestEffective<T extends SuccessionRow>(rows: readonly T[], contractId: number, settleMonth: string): T | undefined {
  let best: T | undefined;
  for (const r of rows) {
    if (r.contractId !== contractId || r.status !== 'ACTIVE' || r.effectiveMonth > settleMonth) continue;
    if (best === undefined || isLater(r, best)) best = r;
  }
  return best;
}

/**
 * Rule 10: the latest ACTIVE succession of the contract effective in the settle month, i.e. with
 * effectiveMonth <= settleMonth; latest = greatest effectiveMonth, then greatest id. undefined: the
 * contract's own agent keeps the maintain commission.
 */
export function resolveSuccession<T extends SuccessionRow>(
  successions: readonly T[],
  contractId: number,
  settleMonth: string,
): T | undefined {
  parseSettleMonth(settleMonth);
  return latestEffective(successions, contractId, settleMonth);
}

/** Step 5 preloads the successions once per run: contractId -> its rows. */
export interface SuccessionIndex<T extends SuccessionRow> {
  resolve(contractId: number, settleMonth: string): T | undefined;
  /** The agent the maintain ledger row carries: the successor, or the contract's own agent. */
  maintainAgentId(contractId: number, contractAgentId: number, settleMonth: string): number;
}

export function buildSuccessionIndex<T extends SuccessionRow>(successions: readonly T[]): SuccessionIndex<T> {
  const byContract = new Map<number, T[]>();
  for (const s of successions) {
    if (s.status !== 'ACTIVE') continue;
    const list = byContract.get(s.contractId);
    if (list) list.push(s);
    else byContract.set(s.contractId, [s]);
  }
  const resolve = (contractId: number, settleMonth: string): T | undefined => {
    parseSettleMonth(settleMonth);
    const rows = byContract.get(contractId);
    return rows === undefined ? undefined : latestEffective(rows, contractId, settleMonth);
  };
  return {
    resolve,
    maintainAgentId: (contractId, contractAgentId, settleMonth) =>
      resolve(contractId, settleMonth)?.toAgentId ?? contractAgentId,
  };
}
