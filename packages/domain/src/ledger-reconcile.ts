import type { Decimal } from 'decimal.js';
import { D, toDec, toNonNegative, type DecimalInput } from './decimal.js';
import { centsOf, formatCents } from './money-text.js';
import { formatMoney } from './rounding.js';

export type LedgerReconcileStatus = 'PENDING' | 'MATCHED' | 'DIFF';

export interface LedgerReconcile {
  status: LedgerReconcileStatus;
  /** reported - computed; null when the carrier reported nothing. */
  diff: Decimal | null;
}

/** reconcileLedgerAmount with the diff as formatMoney writes it. */
export interface LedgerReconcileMoney {
  status: LedgerReconcileStatus;
  diff: string | null;
}

interface Threshold {
  key: DecimalInput;
  limit: Decimal;
  /** floor(limit x 100): a whole number of cents is within the limit exactly when within this. */
  limitCents: bigint;
}

/* A run passes the same threshold for every row: the last one is kept (values are immutable). */
let lastThreshold: Threshold | undefined;

function thresholdOf(threshold: DecimalInput): Threshold {
  if (lastThreshold !== undefined && lastThreshold.key === threshold) return lastThreshold;
  const limit = toNonNegative(threshold, 'threshold');
  // Truncating to two places is exact at any precision (a multiplication by 100 would round).
  const limitCents = BigInt(limit.toDecimalPlaces(2, D.ROUND_DOWN).toFixed(2).replace('.', ''));
  lastThreshold = { key: threshold, limit, limitCents };
  return lastThreshold;
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
  const { limit } = thresholdOf(threshold);
  if (reported === null || reported === undefined) return { status: 'PENDING', diff: null };
  const diff = toDec(reported, 'reported').minus(toDec(computed, 'computed'));
  return { status: diff.abs().lte(limit) ? 'MATCHED' : 'DIFF', diff };
}

/**
 * reconcileLedgerAmount with the diff already formatted (formatMoney(diff)), computed in cents when
 * both amounts are exact at two places, as numeric(15,2) values and calcCommissionFormatted's
 * amounts are; anything else takes the decimal.js rule.
 */
export function reconcileLedgerMoney(
  reported: DecimalInput | null | undefined,
  computed: DecimalInput,
  threshold: DecimalInput,
): LedgerReconcileMoney {
  const { limitCents } = thresholdOf(threshold);
  if (reported === null || reported === undefined) return { status: 'PENDING', diff: null };
  const reportedCents = centsOf(reported);
  const computedCents = reportedCents === null ? null : centsOf(computed);
  if (reportedCents === null || computedCents === null) {
    const exact = reconcileLedgerAmount(reported, computed, threshold);
    return { status: exact.status, diff: formatMoney(exact.diff as Decimal) };
  }
  const diff = reportedCents - computedCents;
  return { status: (diff < 0n ? -diff : diff) <= limitCents ? 'MATCHED' : 'DIFF', diff: formatCents(diff) };
}
