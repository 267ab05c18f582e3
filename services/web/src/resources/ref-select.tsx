import { useQueries, useQuery } from '@tanstack/react-query';
import { InputNumber, Select, TreeSelect } from 'antd';
import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import { dynamicApi } from '../api/client.js';
import { unwrap, type PageResponse } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import { useResourceMeta, type FieldMeta, type FieldRef } from './meta.js';
import {
  fromKey,
  knownOption,
  rowLookup,
  SELECT_PAGE,
  mergeOptions,
  optionOf,
  refTargetOf,
  toKeys,
  treeOptions,
  treeTitle,
  type RefOption,
  type RefTarget,
} from './ref-options.js';

type Row = Record<string, unknown>;

/** First results of a search: the first page of the target's own list (STYLE: 20 rows, debounced). */
const SEARCH_PAGE = 20;
// Short enough that typing → options stays under 300 ms (the search itself answers in ~100-200 ms on the 1M book).
const DEBOUNCE_MS = 120;

/** The picker of a reference field, or undefined while the metadata loads or when the target is not readable. */
export function useRefTarget(ref: FieldRef | null | undefined, field?: Pick<FieldMeta, 'kind'>): RefTarget | undefined {
  const meta = useResourceMeta();
  return useMemo(() => refTargetOf(ref, meta.data ?? [], field), [ref, meta.data, field]);
}

async function listRows(target: RefTarget, query: Record<string, string | number>): Promise<Row[]> {
  return unwrap<PageResponse<Row>>(await dynamicApi.GET(target.listPath, { params: { query } })).list;
}

/** The row behind one value (rowLookup: its detail route, or its list). */
async function rowOf(target: RefTarget, key: string): Promise<Row | undefined> {
  const how = rowLookup(target, key);
  if (!how) return undefined;
  if ('detail' in how) return unwrap<Row>(await dynamicApi.GET(how.detail, {}));
  return (await listRows(target, how.query)).find((r) => String(r[target.valueField]) === key);
}

/** The options of the given values (labels of a record being edited or of a filter restored from the URL). */
export function useRefOptions(target: RefTarget | undefined, keys: readonly string[], known?: RefOption) {
  const results = useQueries({
    queries: keys.map((key) => ({
      queryKey: ['ref-row', target?.meta.path, key],
      // The record being edited names its reference already (its joined name): nothing to fetch.
      enabled: !!target && key !== known?.value,
      staleTime: 5 * 60_000,
      retry: false,
      queryFn: async () => (await rowOf(target!, key)) ?? null,
    })),
  });
  return keys.map((key, i): RefOption => {
    if (key === known?.value) return known;
    const row = results[i]?.data;
    return (row && target ? optionOf(row, target) : undefined) ?? { value: key, label: key };
  });
}

const OPTION_STYLE: CSSProperties = { display: 'flex', justifyContent: 'space-between', gap: 12, minWidth: 0 };
const SECONDARY_STYLE: CSSProperties = { color: 'rgba(0, 0, 0, 0.62)', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' };

/** A search result: the name, and on the same line at the right the value that tells equal names apart. */
function OptionLabel({ option }: { option: RefOption }) {
  return (
    <span className="ref-option" style={OPTION_STYLE}>
      <span className="ref-option-label">{option.label}</span>
      {option.secondary && (
        <span className="ref-option-secondary" style={SECONDARY_STYLE}>
          {option.secondary}
        </span>
      )}
    </span>
  );
}

export interface RefSelectProps {
  field: Pick<FieldMeta, 'key' | 'kind' | 'ref' | 'display'>;
  value?: unknown;
  onChange?: (value: unknown) => void;
  /** A filter on several values (`in`). */
  multiple?: boolean;
  /** The record being edited, whose joined name labels the current value without a request. */
  row?: Row | undefined;
  id?: string;
  disabled?: boolean;
  placeholder?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

/**
 * A reference picked by name (STYLE "References"): a debounced server-side search of the target's
 * list (`search`), all rows of a small target (`select`) or the organization tree (`tree`). The form
 * sees the value in the field's own type (an id is a number); a target the user may not read falls
 * back to a number input.
 */
export function RefSelect(props: RefSelectProps) {
  const target = useRefTarget(props.field.ref, props.field);
  if (!target) {
    const { field: _field, row: _row, multiple: _multiple, value, onChange, ...rest } = props;
    return (
      <InputNumber
        {...rest}
        value={value as number | null | undefined}
        onChange={(v) => onChange?.(v ?? undefined)}
        className={['number-input', props.className].filter(Boolean).join(' ')}
      />
    );
  }
  if (target.picker === 'tree' && target.meta.name === 'Organization') return <OrgTreeSelect {...props} target={target} />;
  return <RemoteSelect {...props} target={target} />;
}

function useKeys(value: unknown) {
  const keys = toKeys(value);
  // a stable array while the value is the same
  const joined = keys.join('\u0000');
  return useMemo(() => keys, [joined]);
}

function RemoteSelect({ target, field, value, onChange, multiple, row, ...rest }: RefSelectProps & { target: RefTarget }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const small = target.picker === 'select';
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const keys = useKeys(value);
  const current = useRefOptions(target, keys, knownOption(field, row));
  const found = useQuery({
    queryKey: small ? ['ref-all', target.listPath] : ['ref-search', target.listPath, keyword],
    enabled: open,
    staleTime: small ? 5 * 60_000 : 30_000,
    placeholderData: (previous) => previous,
    queryFn: async () =>
      listRows(target, small ? { pageSize: SELECT_PAGE } : { pageSize: SEARCH_PAGE, ...(keyword ? { searchKeyword: keyword } : {}) }),
  });
  const options = mergeOptions(
    current,
    (found.data ?? []).flatMap((r) => optionOf(r, target) ?? []),
  );

  const emit = (next: unknown) => {
    if (Array.isArray(next)) onChange?.(next.map((k) => fromKey(String(k), target.numeric)));
    else onChange?.(next === undefined || next === null ? undefined : fromKey(String(next), target.numeric));
  };

  return (
    <Select
      {...rest}
      mode={multiple ? 'multiple' : undefined}
      value={multiple ? keys : keys[0]}
      onChange={emit}
      allowClear
      open={open}
      onOpenChange={setOpen}
      loading={found.isFetching}
      placeholder={rest.placeholder ?? t(small ? 'pickers.choose' : 'pickers.typeToSearch')}
      className={['ref-select', rest.className].filter(Boolean).join(' ')}
      popupMatchSelectWidth={false}
      showSearch={
        small
          ? { optionFilterProp: 'search' }
          : { filterOption: false, onSearch: setTyped, searchValue: typed, autoClearSearchValue: true }
      }
      notFoundContent={found.isFetching ? t('pickers.searching') : t('pickers.noMatch')}
      options={options.map((o) => ({ value: o.value, label: o.label, search: `${o.label} ${o.secondary ?? ''}`, option: o }))}
      optionRender={(o) => <OptionLabel option={(o.data as { option: RefOption }).option} />}
    />
  );
}

/** `GET /api/orgs`: the nested organization tree (the same query as the org tree page). */
function useOrgTreeData(enabled: boolean) {
  return useQuery({
    queryKey: ['orgs', 'tree', false],
    enabled,
    staleTime: 60_000,
    queryFn: async () => unwrap<{ orgId: number; orgName: string; children: unknown[] }[]>(await dynamicApi.GET('/api/orgs', {})),
  });
}

function OrgTreeSelect({ target, field, value, onChange, multiple, row, ...rest }: RefSelectProps & { target: RefTarget }) {
  const { t } = useI18n();
  const tree = useOrgTreeData(true);
  const data = useMemo(() => treeOptions(tree.data ?? []), [tree.data]);
  const keys = useKeys(value);
  const known = knownOption(field, row);
  const emit = (next: unknown) => {
    if (Array.isArray(next)) onChange?.(next.map((k) => fromKey(String(k), target.numeric)));
    else onChange?.(next === undefined || next === null ? undefined : fromKey(String(next), target.numeric));
  };
  // Until the tree is in, the value reads as the record's joined name rather than a number.
  const label = (key: string) => treeTitle(data, key) ?? (key === known?.value ? known.label : key);
  return (
    <TreeSelect
      {...rest}
      multiple={multiple}
      value={multiple ? keys.map((k) => ({ value: k, label: label(k) })) : keys[0] === undefined ? undefined : { value: keys[0], label: label(keys[0]) }}
      labelInValue
      onChange={(next: unknown) =>
        emit(Array.isArray(next) ? next.map((n) => (n as { value: string }).value) : (next as { value: string } | undefined)?.value)
      }
      allowClear
      loading={tree.isFetching}
      treeData={data}
      treeDefaultExpandedKeys={data.map((n) => n.value)}
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={rest.placeholder ?? t('pickers.chooseOrg')}
      className={['ref-select', rest.className].filter(Boolean).join(' ')}
      popupMatchSelectWidth={false}
      notFoundContent={t('pickers.noMatch')}
    />
  );
}
