import { UnrecoverableError } from '@csp/batch';
import { toNonNegative, type Dec } from '@csp/domain';
import type { IntakeDb } from '../db.js';

/** RECON_DIFF_THRESHOLD (an amount), default 0 when the key is missing. */
export async function loadReconThreshold(db: IntakeDb): Promise<Dec> {
  const row = await db
    .selectFrom('system_config')
    .select('config_value')
    .where('config_key', '=', 'RECON_DIFF_THRESHOLD')
    .executeTakeFirst();
  const text = row?.config_value.trim() || '0';
  try {
    return toNonNegative(text, 'RECON_DIFF_THRESHOLD');
  } catch {
    throw new UnrecoverableError('system_config RECON_DIFF_THRESHOLD is not a non-negative number');
  }
}
