import type { ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { StatusTag } from '../shared/status-tag.js';
import type { FieldMeta } from './meta.js';

const NUMERIC = new Set(['money', 'rate', 'int']);

export function isNumericKind(kind: string): boolean {
  return NUMERIC.has(kind);
}

/** Money as the server sent it (a decimal string), grouped for reading; never through a JS number. */
export function formatDecimal(text: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (!match) return text;
  return `${match[1]}${match[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${match[3] ?? ''}`;
}

export function FieldValue({ field, value }: { field: FieldMeta; value: unknown }): ReactNode {
  const { t } = useI18n();
  if (value === null || value === undefined || value === '') return <span className="empty-value">-</span>;
  switch (field.kind) {
    case 'bool':
      return value ? t('common.yes') : t('common.no');
    case 'money':
      return formatDecimal(String(value));
    case 'enum':
      return <StatusTag status={String(value)} />;
    case 'timestamp':
    case 'createdAt':
    case 'updatedAt':
      return String(value).replace('T', ' ').replace(/\.\d+Z?$|Z$/, '');
    case 'json':
      return <code className="json-value">{JSON.stringify(value)}</code>;
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
