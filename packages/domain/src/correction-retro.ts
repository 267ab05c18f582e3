import type { Decimal } from 'decimal.js';
import { isNegative, toDec, ZERO, type DecimalInput } from './decimal.js';

/**
 * Retroactive rule revisions (step 6, RETRO_PLUS / RETRO_MINUS): a locked ledger row of an earlier month
 * re-priced under today's rules; what it should have paid minus what it paid minus what earlier
 * retroactive rows already made up for is the difference still owed (+) or overpaid (-).
 */
export interface RetroLineInput {
  /** agent_amount stored on the ledger row */
  stored: DecimalInput;
  /** agent_amount of the same row re-priced under today's rules */
  repriced: DecimalInput;
  /** signed differences earlier RETRO rows already carried for this row */
  compensated: DecimalInput;
}

export interface RetroResult {
  /** per line: repriced - stored - compensated */
  diffs: Decimal[];
  /** the sum of the diffs */
  total: Decimal;
  /** PLUS when total > 0, MINUS when < 0, null when 0 (no row) */
  direction: 'PLUS' | 'MINUS' | null;
  /** |total| (exception rows carry a non-negative amount and a direction) */
  amount: Decimal;
}

export function retroDifference(lines: readonly RetroLineInput[]): RetroResult {
  const diffs = lines.map((l) =>
    toDec(l.repriced, 'repriced').minus(toDec(l.stored, 'stored')).minus(toDec(l.compensated, 'compensated')),
  );
  const total = diffs.reduce((s, d) => s.plus(d), ZERO);
  const direction = total.isZero() ? null : isNegative(total) ? 'MINUS' : 'PLUS';
  return { diffs, total, direction, amount: total.abs() };
}
