import { sql } from 'kysely';
import { invalid, notFound, zDate, type ServiceApp } from '@csp/service-kit';
import { findLine } from '../approvals/approvals.repository.js';
import { findRow } from '../common/resource-rows.js';
import { configResource } from './config.resource.js';

/** Keys whose value is a whole number >= 1 (counts, limits, sizes, days). */
const INTEGER_KEYS = /(_LIMIT|_SIZE|_SIZE_MB|_ROWS|_MINUTES|_DAYS|_DAY|_COUNT)$/;
/** Keys whose value is a non-negative decimal (rates in percent, amounts). */
const DECIMAL_KEYS = /^TAX_RATE|(_RATE|_THRESHOLD|_AMOUNT)$/;

/** Keys whose value is a percent 0-100 (alert thresholds). */
const PERCENT_KEYS = /^RETENTION_ALERT_/;
/** Keys naming an approval line (checked against approval_line in `update`). */
export const APPROVAL_LINE_KEYS = /_APPROVAL_LINE$/;

/** The reason a value is refused for the key, or undefined when it fits. */
export function configValueViolation(key: string, value: string): string | undefined {
  if (key === 'BANK_CLOSED_DAYS') {
    if (value === '') return undefined;
    const bad = value.split(',').map((d) => d.trim()).find((d) => !zDate.safeParse(d).success);
    return bad === undefined ? undefined : `must be dates YYYY-MM-DD separated by commas (${bad.slice(0, 20)} is not one)`;
  }
  if (key === 'TRAINING_HOURS_REQUIRED') {
    return /^\d{1,4}$/.test(value) ? undefined : 'must be a whole number of hours (0-9999)';
  }
  if (PERCENT_KEYS.test(key)) {
    return /^\d{1,3}(\.\d{1,2})?$/.test(value) && Number(value) <= 100 ? undefined : 'must be a percent between 0 and 100';
  }
  if (APPROVAL_LINE_KEYS.test(key)) {
    return /^[A-Za-z0-9_-]{1,30}$/.test(value) ? undefined : 'must be an approval line code';
  }
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

export class ConfigService {
  constructor(private readonly app: ServiceApp) {}

  /** Every entry (of a group) in group and key order, encrypted values masked. */
  async list(query: { configGroup?: string | undefined }) {
    const qb = configResource.orderBy(configResource.applyFilters(configResource.select(this.app.db), query, undefined), {});
    return (await qb.execute()).map((row) => configResource.toResp(row, this.app.cipher));
  }

  private async find(key: string) {
    const row = await findRow(configResource, this.app.db, key);
    return row && { row, resp: configResource.toResp(row, this.app.cipher) };
  }

  /** Unknown key -> E404; a value unfit for the key -> E411; encrypted keys are stored encrypted. */
  async update(key: string, value: string, actorId: number | null) {
    const before = await this.find(key);
    if (!before) throw notFound(`Configuration ${key}`);
    const encrypted = before.row.isEncrypted === 'Y';
    const trimmed = encrypted ? value : value.trim();
    const violation = configValueViolation(key, trimmed);
    if (violation) throw invalid('value', violation);
    if (APPROVAL_LINE_KEYS.test(key)) {
      if (!(await findLine(this.app.db, trimmed))) throw invalid('value', `approval line ${trimmed} does not exist`);
    }
    const stored = encrypted && trimmed !== '' ? this.app.cipher.encrypt(trimmed) : trimmed;
    await this.app.db
      .updateTable('system_config')
      .set({ config_value: stored, updated_by: actorId, updated_at: sql<Date>`now()` })
      .where('config_key', '=', key)
      .execute();
    return { before: before.resp, after: (await this.find(key))!.resp };
  }
}
