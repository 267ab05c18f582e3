import { Tag, Typography } from 'antd';
import { useI18n } from '../../i18n/i18n.js';
import { RefName } from '../../resources/ref-name.js';
import type { ConfigEntry } from './config-words.js';

/** Settings whose value names an approval line (auth-platform config.service.ts APPROVAL_LINE_KEYS). */
const APPROVAL_LINE_KEY = /_APPROVAL_LINE$/;
const APPROVAL_LINE = { resource: 'ApprovalLine', valueField: 'lineCode', labelField: 'lineName', picker: 'select' } as const;
const WHOLE_NUMBER = /^\d{4,}$/;

/** A plain value in words: an approval line by its name, a whole number grouped (1,000,000), else as stored. */
export function PlainValue({ configKey, value }: { configKey: string | null | undefined; value: string }) {
  if (configKey && APPROVAL_LINE_KEY.test(configKey)) return <RefName target={APPROVAL_LINE} value={value} />;
  if (WHOLE_NUMBER.test(value)) return <>{value.replace(/\B(?=(\d{3})+$)/g, ',')}</>;
  return <>{value}</>;
}

/** A value as the list shows it: encrypted ones only masked (the server never sends them), empty in words. */
export function ShownValue({ entry }: { entry: Pick<ConfigEntry, 'configKey' | 'configValue' | 'isEncrypted'> }) {
  const { t } = useI18n();
  if (entry.isEncrypted === 'Y') {
    return (
      <span className="nowrap">
        <Tag>{t('config.encrypted')}</Tag>
        {entry.configValue === '' ? t('config.notSet') : entry.configValue}
      </span>
    );
  }
  return entry.configValue === '' ? (
    <Typography.Text type="secondary">{t('config.empty')}</Typography.Text>
  ) : (
    <span>
      <PlainValue configKey={entry.configKey} value={entry.configValue} />
    </span>
  );
}
