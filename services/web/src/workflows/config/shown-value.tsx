import { Tag, Typography } from 'antd';
import { useI18n } from '../../i18n/i18n.js';
import type { ConfigEntry } from './config-words.js';

/** A value as the list shows it: encrypted ones only masked (the server never sends them), empty in words. */
export function ShownValue({ entry }: { entry: Pick<ConfigEntry, 'configValue' | 'isEncrypted'> }) {
  const { t } = useI18n();
  if (entry.isEncrypted === 'Y') {
    return (
      <span className="nowrap">
        <Tag>{t('config.encrypted')}</Tag>
        {entry.configValue === '' ? t('config.notSet') : entry.configValue}
      </span>
    );
  }
  return entry.configValue === '' ? <Typography.Text type="secondary">{t('config.empty')}</Typography.Text> : <span>{entry.configValue}</span>;
}
