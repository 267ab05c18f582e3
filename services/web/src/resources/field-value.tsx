import type { ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { formatDate, formatMoney, formatMonth, formatRate, formatTimestamp } from '../shared/format.js';
import { StatusTag } from '../shared/status-tag.js';
import { useCodeOptions } from './codes.js';
import { displayKind, type FieldMeta } from './meta.js';

const NUMERIC = new Set(['money', 'rate', 'int']);

export function isNumericKind(kind: string): boolean {
  return NUMERIC.has(kind);
}

/** A code drawn as one tag named in the user's language (common code name, else the catalog's words). */
function CodeValue({ group, code }: { group: string | null | undefined; code: string }) {
  const codes = useCodeOptions(group);
  const found = codes.find((c) => c.value === code);
  return <StatusTag status={code} label={found?.label} tone={found?.tone} />;
}

/** A code's name sent by the server (always the Korean code_name), named again in the user's language. */
function CodeNameValue({ group, code, name }: { group: string; code: string; name: string }) {
  const found = useCodeOptions(group).find((c) => c.value === code);
  return found?.label ?? name;
}

const YES_NO = /^(is|has|use)[A-Z]|(Yn|Flag)$/;

export function FieldValue({ field, value, row }: { field: FieldMeta; value: unknown; row?: Record<string, unknown> | undefined }): ReactNode {
  const { t } = useI18n();
  if (value === null || value === undefined || value === '') return <span className="empty-value">-</span>;
  const kind = displayKind(field);
  if (typeof value === 'string' && (value === 'Y' || value === 'N') && (kind === 'yn' || field.codeGroup === 'YN' || YES_NO.test(field.key))) {
    return value === 'Y' ? t('common.yes') : t('common.no');
  }
  const twinCode = field.twinOf ? row?.[field.twinOf] : undefined;
  if (kind === 'text' && field.codeGroup && twinCode != null && twinCode !== '') {
    return <CodeNameValue group={field.codeGroup} code={String(twinCode)} name={String(value)} />;
  }
  switch (kind) {
    case 'enum':
    case 'code':
    case 'status':
      return <CodeValue group={field.codeGroup} code={String(value)} />;
    case 'ref': {
      const shown = field.ref?.displayField ? row?.[field.ref.displayField] : undefined;
      return shown == null || shown === '' ? String(value) : String(shown);
    }
    default:
      return kindValue(kind, value, t);
  }
}

/** A (non-empty) value as its kind reads: money, rate, month, date, time, yes/no, JSON, else as text. */
export function kindValue(kind: string, value: unknown, t: (key: 'common.yes' | 'common.no') => string): ReactNode {
  switch (kind) {
    case 'bool':
      return value ? t('common.yes') : t('common.no');
    case 'money':
      return <span className="money">{formatMoney(String(value))}</span>;
    case 'rate':
      return formatRate(String(value));
    case 'month':
      return formatMonth(String(value));
    case 'date':
      return formatDate(String(value));
    case 'timestamp':
    case 'createdAt':
    case 'updatedAt':
      return formatTimestamp(String(value));
    case 'json':
      return <code className="json-value">{JSON.stringify(value)}</code>;
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
