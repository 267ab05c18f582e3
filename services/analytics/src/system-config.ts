import type { Db } from '@csp/db';
import { readSystemConfig } from '@csp/service-kit';

/** Defaults of DECISIONS "Analytics definitions" when system_config has no (usable) value. */
export const ALERT_DEFAULTS = { RETENTION_ALERT_13M: '80', RETENTION_ALERT_25M: '65', RETENTION_ALERT_DROP: '10' } as const;
type AlertKey = keyof typeof ALERT_DEFAULTS;

const DECIMAL = /^\d{1,3}(\.\d{1,4})?$/;

export interface AlertSettings {
  /** Threshold (percent) per horizon. */
  threshold: Record<number, string>;
  /** Fall from the previous cohort that raises a DROP alert (points). */
  dropPoints: string;
}

/** The alert thresholds from system_config; a missing or malformed value falls back to its default. */
export async function readAlertSettings(db: Db): Promise<AlertSettings> {
  const config = await readSystemConfig(db, Object.keys(ALERT_DEFAULTS));
  const value = (key: AlertKey) => {
    const v = config.get(key)?.trim();
    return v !== undefined && DECIMAL.test(v) ? v : ALERT_DEFAULTS[key];
  };
  return {
    threshold: { 13: value('RETENTION_ALERT_13M'), 25: value('RETENTION_ALERT_25M') },
    dropPoints: value('RETENTION_ALERT_DROP'),
  };
}
