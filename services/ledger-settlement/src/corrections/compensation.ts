import { sql } from 'kysely';
import { formatMoney, sum, toDec } from '@csp/domain';
import type { Executor } from '../period-closes/month-guard.js';

/** One re-priced ledger row inside a RETRO exception's or a RECALC correction's calc_basis.lines. */
export interface RepriceLine {
  table: 'recruit_ledger' | 'maintain_ledger';
  ledgerId: number;
  settleMonth: string;
  commissionYear: number;
  stored: string;
  repriced: string;
  compensated: string;
  diff: string;
  companyRate: { from: unknown; to: unknown };
  payoutRule: { from: unknown; to: unknown };
}

/** calc_basis.lines of alias `a`, an empty array when the basis has none. */
const lines = (a: string) =>
  sql`CASE WHEN jsonb_typeof(${sql.ref(`${a}.calc_basis`)}->'lines') = 'array' THEN ${sql.ref(`${a}.calc_basis`)}->'lines' ELSE '[]'::jsonb END`;

export const lineKey = (table: string, ledgerId: number) => `${table}:${ledgerId}`;

/**
 * What earlier re-pricings already made up for, per ledger row (signed sum of their line diffs): every
 * RETRO_PLUS/RETRO_MINUS exception row still present (approved, pending or rejected alike: a decided
 * difference is not proposed again) and every PENDING or APPROVED RECALC correction.
 */
export async function priorCompensation(
  db: Executor,
  scope: { contractIds: number[]; agentIds: number[] },
): Promise<Map<string, string>> {
  if (scope.contractIds.length === 0 && scope.agentIds.length === 0) return new Map();
  const { rows } = await sql<{ t: string; id: number; diff: string }>`
    SELECT line->>'table' AS t, (line->>'ledgerId')::bigint AS id, line->>'diff' AS diff
    FROM exception_ledger e CROSS JOIN LATERAL jsonb_array_elements(${lines('e')}) AS line
    WHERE e.exception_code IN ('RETRO_PLUS', 'RETRO_MINUS') AND e.contract_id = ANY(${scope.contractIds}::bigint[])
    UNION ALL
    SELECT line->>'table', (line->>'ledgerId')::bigint, line->>'diff'
    FROM settle_correction c CROSS JOIN LATERAL jsonb_array_elements(${lines('c')}) AS line
    WHERE c.correction_type = 'RECALC' AND c.status IN ('PENDING', 'APPROVED') AND c.agent_id = ANY(${scope.agentIds}::bigint[])`.execute(db);
  const byKey = new Map<string, string[]>();
  for (const r of rows) {
    const key = lineKey(r.t, Number(r.id));
    const list = byKey.get(key);
    if (list) list.push(r.diff);
    else byKey.set(key, [r.diff]);
  }
  return new Map([...byKey].map(([k, diffs]) => [k, formatMoney(sum(diffs.map((d) => toDec(d, 'diff'))))]));
}
