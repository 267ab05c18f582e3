import { expect } from 'vitest';
import { formatMoney, toDec } from '@csp/domain';

/**
 * Issue 23.2 invariant (DECISIONS "Settlement lifecycle"): every view of a settle row or of month totals carries each
 * part of gross, and the parts add up to gross to the cent, with the aggregate's own formula (domain
 * calcSettlementWithOther): gross = recruit + maintain + override + exceptionPlus - exceptionMinus - chargeback
 * + correction + other. Exact decimals, never JS numbers.
 */
export interface Parts {
  recruit: string;
  maintain: string;
  override: string;
  exceptionPlus: string;
  exceptionMinus: string;
  chargeback: string;
  correction: string;
  other: string;
  gross: string;
}

const MONEY = /^-?\d+\.\d{2}$/;

/** gross minus the signed sum of its parts, formatted ("0.00" when they add up). */
export function partsGap(p: Parts): string {
  for (const [field, value] of Object.entries(p)) {
    expect(value, `${field} must be a money string`).toMatch(MONEY);
  }
  const d = (v: string, f: string) => toDec(v, f);
  const parts = d(p.recruit, 'recruit')
    .plus(d(p.maintain, 'maintain'))
    .plus(d(p.override, 'override'))
    .plus(d(p.exceptionPlus, 'exceptionPlus'))
    .minus(d(p.exceptionMinus, 'exceptionMinus'))
    .minus(d(p.chargeback, 'chargeback'))
    .plus(d(p.correction, 'correction'))
    .plus(d(p.other, 'other'));
  return formatMoney(d(p.gross, 'gross').minus(parts));
}

/** The parts of a settle resource row (list or detail). */
export function settleRowParts(r: any): Parts {
  return {
    recruit: r.recruitTotal,
    maintain: r.maintainTotal,
    override: r.overrideTotal,
    exceptionPlus: r.exceptionPlus,
    exceptionMinus: r.exceptionMinus,
    chargeback: r.chargebackTotal,
    correction: r.correctionTotal,
    other: r.otherTotal,
    gross: r.grossAmount,
  };
}

/** The parts of a totals object (summary totals, summary byStatus totals, explain totals and stored). */
export function totalsParts(t: any): Parts {
  return {
    recruit: t.recruit,
    maintain: t.maintain,
    override: t.override,
    exceptionPlus: t.exceptionPlus,
    exceptionMinus: t.exceptionMinus,
    chargeback: t.chargeback,
    correction: t.correction,
    other: t.other,
    gross: t.gross,
  };
}

export interface PartsChecked {
  settleRows: number;
  summaryRows: number;
  explainRows: number;
}

/**
 * Checks every settle row of the month (list), the month summary (grand total and each status) and the explain
 * totals and stored figures of every row: each has every part, and they add up to gross. `get` returns `data` of a
 * 200 answer. Returns how many rows of each view were checked.
 */
export async function expectMonthPartsAddUp(get: (path: string) => Promise<any>, month: string): Promise<PartsChecked> {
  const list = await get(`/api/settle?settleMonth=${month}&pageSize=1000&sortField=agentId&sortOrder=ASC`);
  expect(list.total).toBe(list.list.length);
  for (const r of list.list) {
    expect(partsGap(settleRowParts(r)), `settle row ${r.settleId} (agent ${r.agentId})`).toBe('0.00');
  }
  const summary = await get(`/api/settle/summary?settleMonth=${month}`);
  const summaryRows = [{ status: 'ALL', totals: summary.totals }, ...summary.byStatus];
  for (const s of summaryRows) {
    expect(partsGap(totalsParts(s.totals)), `summary ${month} ${s.status}`).toBe('0.00');
  }
  let explainRows = 0;
  for (const r of list.list) {
    const e = await get(`/api/settle/${r.settleId}/explain`);
    expect(e.reconciles, `explain ${r.settleId}: ${JSON.stringify(e.mismatches)}`).toBe(true);
    expect(partsGap(totalsParts(e.totals)), `explain totals ${r.settleId}`).toBe('0.00');
    expect(partsGap(totalsParts(e.stored)), `explain stored ${r.settleId}`).toBe('0.00');
    explainRows++;
  }
  return { settleRows: list.list.length, summaryRows: summaryRows.length, explainRows };
}
