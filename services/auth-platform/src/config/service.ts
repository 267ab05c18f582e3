import { invalid, isoTimestamp, notFound, type FieldCipher } from '@csp/service-kit';
import type { ConfigRepository, ConfigRow } from './repository.js';

export const MASKED_VALUE = '********';

/** Keys whose value is a whole number >= 1 (counts, limits, sizes, days). */
const INTEGER_KEYS = /(_LIMIT|_SIZE|_SIZE_MB|_ROWS|_MINUTES|_DAYS|_DAY|_COUNT)$/;
/** Keys whose value is a non-negative decimal (rates in percent, amounts). */
const DECIMAL_KEYS = /^TAX_RATE|(_RATE|_THRESHOLD|_AMOUNT)$/;

/** The reason a value is refused for the key, or undefined when it fits. */
export function configValueViolation(key: string, value: string): string | undefined {
  if (INTEGER_KEYS.test(key)) {
    if (!/^\d+$/.test(value) || Number(value) < 1) return 'must be a whole number of at least 1';
    if (key.endsWith('_DAY') && Number(value) > 31) return 'must be a day of the month (1-31)';
    return undefined;
  }
  if (DECIMAL_KEYS.test(key)) {
    if (!/^\d{1,13}(\.\d{1,4})?$/.test(value)) return 'must be a non-negative number with at most 4 decimals';
    if (key.startsWith('TAX_RATE') && Number(value) > 100) return 'a rate in percent must be at most 100';
  }
  return undefined;
}

/** Encrypted values never leave the service in clear (nor in cipher text): they are masked. */
export function toConfigResp(row: ConfigRow) {
  const encrypted = row.is_encrypted === 'Y';
  return {
    configKey: row.config_key,
    configValue: encrypted ? (row.config_value === '' ? '' : MASKED_VALUE) : row.config_value,
    configGroup: row.config_group,
    description: row.description,
    isEncrypted: row.is_encrypted,
    updatedBy: row.updated_by,
    updatedAt: isoTimestamp(row.updated_at),
  };
}

export class ConfigService {
  constructor(
    private readonly repo: ConfigRepository,
    private readonly cipher: FieldCipher,
  ) {}

  async list(configGroup: string | undefined) {
    return (await this.repo.list({ configGroup })).map(toConfigResp);
  }

  /** Unknown key -> E404; a value unfit for the key -> E411; encrypted keys are stored encrypted. */
  async update(key: string, value: string, actorId: number | null) {
    const before = await this.repo.find(key);
    if (!before) throw notFound(`Configuration ${key}`);
    const trimmed = before.is_encrypted === 'Y' ? value : value.trim();
    const violation = configValueViolation(key, trimmed);
    if (violation) throw invalid('value', violation);
    const stored = before.is_encrypted === 'Y' && trimmed !== '' ? this.cipher.encrypt(trimmed) : trimmed;
    await this.repo.setValue(key, stored, actorId);
    const after = await this.repo.find(key);
    return { before: toConfigResp(before), after: toConfigResp(after!) };
  }
}
