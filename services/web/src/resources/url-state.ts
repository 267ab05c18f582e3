import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { COMMON_KEYS } from './list-keys.js';

export { COMMON_KEYS };

export const PAGE_SIZES = [20, 50, 100] as const;

export interface ListState {
  /** Exactly what goes to the server (and stays in the URL). */
  query: Record<string, string>;
  pageNum: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'ASC' | 'DESC';
  /** Replaces some keys; `undefined` or '' removes a key. Filters reset the page to 1 unless it is given. */
  update(patch: Record<string, string | number | undefined | null>, options?: { keepPage?: boolean }): void;
  reset(): void;
}

/** A list's filters, page and sort live in the URL so that a link reproduces the view. */
export function useListState(extraKeys: readonly string[]): ListState {
  const [params, setParams] = useSearchParams();
  const keys = useMemo(() => [...COMMON_KEYS, ...extraKeys], [extraKeys]);
  const query = useMemo(() => {
    const out: Record<string, string> = {};
    for (const key of keys) {
      const value = params.get(key);
      if (value !== null && value !== '') out[key] = value;
    }
    return out;
  }, [params, keys]);

  const update = useCallback<ListState['update']>(
    (patch, options) => {
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined || value === null || value === '') next.delete(key);
          else next.set(key, String(value));
        }
        if (!options?.keepPage && !('pageNum' in patch)) next.delete('pageNum');
        return next;
      });
    },
    [setParams],
  );
  const reset = useCallback(() => setParams(new URLSearchParams()), [setParams]);

  const pageSize = Number(query.pageSize ?? 20);
  return {
    query,
    pageNum: Math.max(1, Number(query.pageNum ?? 1) || 1),
    pageSize: PAGE_SIZES.includes(pageSize as (typeof PAGE_SIZES)[number]) ? pageSize : 20,
    ...(query.sortField ? { sortField: query.sortField } : {}),
    ...(query.sortOrder === 'ASC' || query.sortOrder === 'DESC' ? { sortOrder: query.sortOrder } : {}),
    update,
    reset,
  };
}

/** The export link: the list's query without paging. */
export function exportHref(path: string, query: Record<string, string>): string {
  const rest = Object.entries(query).filter(([k]) => k !== 'pageNum' && k !== 'pageSize');
  const qs = new URLSearchParams(rest).toString();
  return `${path}/excel${qs ? `?${qs}` : ''}`;
}
