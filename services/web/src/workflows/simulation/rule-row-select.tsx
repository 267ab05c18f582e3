import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { dynamicApi } from '../../api/client.js';
import { unwrap, type PageResponse } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import type { ResourceMeta } from '../../resources/meta.js';
import { ruleRowLabel } from './simulation-model.js';

type Row = Record<string, unknown>;
const PAGE = 50;
const DEBOUNCE_MS = 300;

/**
 * One existing row of a rule table, picked from that table's own list (searched on the server, newest
 * first): each option reads as the rule's values and period. The picked row goes to `onRow` so a
 * replacement can start from its values.
 */
export function RuleRowSelect({
  resource,
  idKey,
  value,
  onChange,
  onRow,
  id,
  'aria-label': ariaLabel,
}: {
  resource: ResourceMeta;
  idKey: string;
  value?: number | undefined;
  onChange?: (value: number | undefined) => void;
  onRow?: (row: Row | undefined) => void;
  id?: string;
  'aria-label'?: string;
}) {
  const { t } = useI18n();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const sortable = resource.fields.some((f) => f.key === idKey && f.sort);
  const rows = useQuery({
    queryKey: ['list', resource.path, 'sim-pick', keyword],
    staleTime: 30_000,
    placeholderData: (previous) => previous,
    queryFn: async () =>
      unwrap<PageResponse<Row>>(
        await dynamicApi.GET(resource.path, {
          params: { query: { pageSize: PAGE, ...(sortable ? { sortField: idKey, sortOrder: 'DESC' } : {}), ...(keyword ? { searchKeyword: keyword } : {}) } },
        }),
      ).list,
  });
  const current = useQuery({
    queryKey: ['record', resource.path, String(value)],
    enabled: value != null && !(rows.data ?? []).some((r) => Number(r[idKey]) === value),
    staleTime: 60_000,
    queryFn: async () => unwrap<Row>(await dynamicApi.GET(`${resource.path}/${value}`, {})),
  });
  const all = [...(current.data ? [current.data] : []), ...(rows.data ?? [])];
  const seen = new Set<number>();
  const options = all.flatMap((row) => {
    const key = Number(row[idKey]);
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ value: key, label: ruleRowLabel(resource, row, idKey), row }];
  });
  return (
    <Select
      id={id}
      aria-label={ariaLabel}
      className="sim-row-select"
      value={value}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped, searchValue: typed, autoClearSearchValue: true }}
      loading={rows.isFetching}
      placeholder={t('sim.pickRow')}
      notFoundContent={rows.isFetching ? t('pickers.searching') : t('pickers.noMatch')}
      popupMatchSelectWidth={false}
      options={options.map(({ value: v, label }) => ({ value: v, label }))}
      onChange={(next: number | undefined) => {
        onChange?.(next ?? undefined);
        onRow?.(options.find((o) => o.value === next)?.row);
      }}
    />
  );
}
