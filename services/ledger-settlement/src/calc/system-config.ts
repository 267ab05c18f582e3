import { UnrecoverableError } from '@csp/batch';
import type { Db } from '@csp/db';
import { DEFAULT_SETTLEMENT_TAX_RATE, formatRate, toNonNegative } from '@csp/domain';

export interface SettlementConfig {
  /** RECON_DIFF_THRESHOLD (amount), default 0. */
  reconThreshold: string;
  /** TAX_RATE (percent) of the aggregate, default 3.3. */
  taxRate: string;
}

const KEYS = ['RECON_DIFF_THRESHOLD', 'TAX_RATE'] as const;

function valid(key: string, value: string): string {
  try {
    return formatRate(toNonNegative(value.trim(), key));
  } catch {
    throw new UnrecoverableError(`system_config ${key} is not a non-negative number`);
  }
}

export async function loadSettlementConfig(db: Db): Promise<SettlementConfig> {
  const rows = await db
    .selectFrom('system_config')
    .select(['config_key', 'config_value'])
    .where('config_key', 'in', [...KEYS])
    .execute();
  const byKey = new Map(rows.map((r) => [r.config_key, r.config_value]));
  return {
    reconThreshold: valid('RECON_DIFF_THRESHOLD', byKey.get('RECON_DIFF_THRESHOLD') ?? '0'),
    taxRate: valid('TAX_RATE', byKey.get('TAX_RATE') ?? DEFAULT_SETTLEMENT_TAX_RATE),
  };
}
