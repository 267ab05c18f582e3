import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../i18n/i18n.js';
import { formatDate, formatMoney, formatMonth, formatRate, formatTimestamp } from '../shared/format.js';
import { StatusTag } from '../shared/status-tag.js';
import { useCodeOptions } from './codes.js';
import { useMyMenus } from '../shell/menus.js';
import { displayKind, rowPath, useResourceMeta, type FieldMeta } from './meta.js';
import { knownOption } from './ref-options.js';
import { useRefOptions, useRefTarget } from './ref-select.js';

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

/** Targets with a page of their own: a settlement opens its explain, an organization the tree with it selected. */
const WORKFLOW_PAGES: Record<string, (pagePath: string, key: string) => string> = {
  Settlement: (pagePath, key) => `/${pagePath.replace(/^\/+|\/+$/g, '')}/explain/${encodeURIComponent(key)}`,
  Organization: (_pagePath, key) => `/org/tree?orgId=${encodeURIComponent(key)}`,
  Agent: (_pagePath, key) => `/org/agents/${encodeURIComponent(key)}`,
};

/** The page of a reference's target row (its menu's page, on the target's tab), when the user may open it. */
function useTargetHref(field: FieldMeta, key: string): string | undefined {
  const target = useRefTarget(field.ref, field);
  const { menus } = useMyMenus();
  const meta = useResourceMeta();
  if (!target?.byId) return undefined;
  const page = menus?.byCode.get(target.meta.menu);
  if (!page || !target.meta.permissions.detail || !menus?.can(target.meta.permissions.detail.menu, target.meta.permissions.detail.perm)) return undefined;
  const workflow = WORKFLOW_PAGES[target.meta.name];
  if (workflow) return workflow(page.path, key);
  const siblings = (meta.data ?? []).filter((r) => r.menu === target.meta.menu);
  const tab = siblings[0] && siblings[0] !== target.meta ? `?resource=${target.meta.name.replace(/[^A-Za-z0-9_-]+/g, '-')}` : '';
  return rowPath(page.path, key, tab);
}

/** A reference read as the target's name (the joined name, else the target's row), linked to that row. */
function RefValue({ field, value, row, link }: { field: FieldMeta; value: unknown; row?: Record<string, unknown> | undefined; link: boolean }) {
  const key = String(value);
  const target = useRefTarget(field.ref, field);
  const [option] = useRefOptions(target, [key], knownOption(field, row ?? { [field.key]: value }));
  const href = useTargetHref(field, key);
  const text = option?.label ?? key;
  return link && href ? (
    <Link to={href} className="ref-link">
      {text}
    </Link>
  ) : (
    <span className="ref-value">{text}</span>
  );
}

const YES_NO = /^(is|has|use)[A-Z]|(Yn|Flag)$/;

export function FieldValue({
  field,
  value,
  row,
  link = true,
}: {
  field: FieldMeta;
  value: unknown;
  row?: Record<string, unknown> | undefined;
  /** A reference links to its target (not inside another link, e.g. a list's first column). */
  link?: boolean;
}): ReactNode {
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
    case 'ref':
      return <RefValue field={field} value={value} row={row} link={link} />;
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
