import { lookup, type Lang } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages.js';

/** A configuration entry as GET /api/system/config answers (encrypted values masked or ''). */
export interface ConfigEntry {
  configKey: string;
  configValue: string;
  configGroup: string;
  description: string | null;
  isEncrypted: 'Y' | 'N';
  updatedBy: number | null;
  updatedAt: string;
}

/** The setting in words: the catalog's description of the key, else the server's, else the key. */
export function settingName(lang: Lang, entry: Pick<ConfigEntry, 'configKey' | 'description'>): string {
  return lookup(lang, `config.desc.${entry.configKey}`) ?? entry.description ?? entry.configKey;
}

export function groupName(lang: Lang, group: string): string {
  return lookup(lang, `config.groupName.${group}`) ?? group;
}

type T = (key: MessageKey, vars?: Record<string, string | number>) => string;

/**
 * The server's refusal of a value (config.service.ts `configValueViolation`) in the user's words; a
 * message this table does not know is shown as the server wrote it.
 */
export function valueErrorText(t: T, message: string): string {
  const dates = /^must be dates YYYY-MM-DD separated by commas \((.*) is not one\)$/.exec(message);
  if (dates) return t('config.err.dates', { bad: dates[1] ?? '' });
  const line = /^approval line (.+) does not exist$/.exec(message);
  if (line) return t('config.err.noLine', { line: line[1] ?? '' });
  const fixed: Record<string, MessageKey> = {
    'must be a whole number of hours (0-9999)': 'config.err.hours',
    'must be a percent between 0 and 100': 'config.err.percent',
    'must be an approval line code': 'config.err.lineCode',
    'must be a whole number of at least 1': 'config.err.wholeNumber',
    'must be a day of the month (1-31)': 'config.err.day',
    'must be a non-negative number with at most 4 decimals': 'config.err.decimal',
    'a rate in percent must be at most 100': 'config.err.rateMax',
  };
  const key = fixed[message];
  if (key) return t(key);
  if (/4000/.test(message)) return t('config.err.tooLong');
  return message;
}

/** The configValue of a change log's before/after snapshot (already masked by the server), or ''. */
export function loggedValue(snapshot: unknown): string | null {
  if (typeof snapshot !== 'object' || snapshot === null) return null;
  const value = (snapshot as { configValue?: unknown }).configValue;
  return typeof value === 'string' ? value : null;
}
