import type { Decimal } from 'decimal.js';
import { toDec, toNonNegative, type DecimalInput } from './decimal.js';

export type LedgerReconcileStatus = 'PENDING' | 'MATCHED' | 'DIFF';

export interface LedgerReconcile {
  status: LedgerReconcileStatus;
  /** reported - computed; null when the carrier reported nothing. */
  diff: Decimal | null;
}

/**
 * DECISIONS (settlement semantics) for one recruit/maintain ledger row: where the carrier reported a
 * company amount, diff = reported - computed and the row is MATCHED when |diff| <= threshold
 * (system_config RECON_DIFF_THRESHOLD), else DIFF. Nothing reported: PENDING, no diff.
 */
export function reconcileLedgerAmount(
  reported: DecimalInput | null | undefined,
  computed: DecimalInput,
  threshold: DecimalInput,
): LedgerReconcile {
  const limit = toNonNegative(threshold, 'threshold');
  if (reported === null || reported === undefined) return { status: 'PENDING', diff: null };
  const diff = toDec(reported, 'reported').minus(toDec(computed, 'computed'));
  return { status: diff.abs().lte(limit) ? 'MATCHED' : 'DIFF', diff };
}
