import { queryOptions, useQuery } from '@tanstack/react-query';
import { dynamicApi } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import { readWarm, writeWarm } from '../api/warm-cache.js';
import { activeLang, type Lang } from '../i18n/i18n.js';
import type { PermCode } from '../shell/menus.js';

/** `GET /api/meta/resources`: what the kit's field table says about every plain resource. */
export interface Grant {
  menu: string;
  perm: PermCode;
}

export type FieldKind =
  | 'id' | 'int' | 'ref' | 'text' | 'code' | 'enum' | 'money' | 'rate' | 'date' | 'month' | 'timestamp' | 'bool'
  | 'json' | 'phone' | 'email' | 'computed' | 'joined' | 'codeName' | 'version' | 'createdAt' | 'updatedAt'
  | 'createdBy' | 'updatedBy' | (string & {});

/** A field's label in both languages (kit v2 metadata), or one text from an older server. */
export type FieldLabel = string | { ko?: string | null; en?: string | null };

/** Where a reference field points and how it is picked (kit metadata `ref`). */
export interface FieldRef {
  resource: string;
  valueField?: string;
  labelField?: string;
  displayField?: string | null;
  picker?: 'search' | 'select' | 'tree' | null;
}

export interface FieldMeta {
  key: string;
  kind: FieldKind;
  label?: FieldLabel | null;
  /** How the value reads (money, rate, month, date, timestamp, code, ref, bool ...) when it differs from `kind`. */
  display?: string | null;
  ref?: FieldRef | null;
  /** The field whose name this one carries (a code's name, a reference's joined name): not a column of its own. */
  twinOf?: string | null;
  detailOnly?: boolean;
  enumValues?: string[];
  codeGroup?: string | null;
  filter?: 'eq' | 'range' | 'in' | null;
  sort: boolean;
  search: boolean;
  save: boolean;
  required: boolean;
  readOnly: boolean;
  createOnly?: boolean;
  nullable?: boolean;
  masked?: boolean | string | null;
}

export interface ResourceMeta {
  name: string;
  path: string;
  menu: string;
  idParam: string;
  /** The field holding the row id (else the field of kind `id`). */
  idField?: string;
  service?: string;
  /** Keys accepted as `searchType` (else the fields flagged `search`). */
  searchTypes?: string[];
  /** Field behind startDate/endDate, when the resource has one. */
  dateFilter?: string;
  /** Field behind `?status=`, when the resource has one. */
  statusField?: string;
  permissions: { list: Grant | null; detail: Grant | null; create: Grant | null; update: Grant | null; delete: Grant | null; export: Grant | null };
  fields: FieldMeta[];
  defaultSort?: string | null;
}

/** Metadata answers that lacked a service (the gateway's `unavailable`): refreshed after seconds, not minutes. */
const partialAnswers = new WeakSet<ResourceMeta[]>();

/** `GET /api/meta/resources` as a query (also prefetched by the layout once the first page has drawn). */
export const resourceMetaQuery = queryOptions({
  queryKey: ['meta', 'resources'],
  // Changes only with a deployment: revalidated at start (the warm copy is dated 0), then kept a while;
  // an answer missing a service that did not reply in time is asked again soon.
  staleTime: (query) => (partialAnswers.has(query.state.data as ResourceMeta[]) ? 5_000 : 10 * 60_000),
  retry: false,
  // none when signed out (the warm copy belongs to the signed-in user)
  initialData: () => readWarm<ResourceMeta[]>('meta'),
  initialDataUpdatedAt: 0,
  queryFn: async (): Promise<ResourceMeta[]> => {
    try {
      const { resources, unavailable = [] } = unwrap<{ resources: ResourceMeta[]; unavailable?: string[] }>(
        await dynamicApi.GET('/api/meta/resources', {}),
      );
      if (unavailable.length === 0) {
        writeWarm('meta', resources);
        return resources;
      }
      // A service that did not answer in time (the gateway names it) keeps what was known of it, so its pages
      // do not turn into "not available"; a partial answer is never kept warm.
      const known = (readWarm<ResourceMeta[]>('meta') ?? []).filter((r) => r.service !== undefined && unavailable.includes(r.service));
      const merged = [...resources, ...known];
      partialAnswers.add(merged);
      return merged;
    } catch (err) {
      // Not served (yet): the generic pages say so instead of failing.
      if (err instanceof ApiError && (err.status === 404 || err.code === 'E404')) return [];
      throw err;
    }
  },
});

export function useResourceMeta(enabled = true) {
  return useQuery({ ...resourceMetaQuery, enabled });
}

export function idField(resource: ResourceMeta): FieldMeta | undefined {
  return resource.fields.find((f) => (resource.idField ? f.key === resource.idField : f.kind === 'id'));
}

/** The label in the screen's language; the other language, then the key in words, when the server sent none. */
export function fieldLabel(field: Pick<FieldMeta, 'key' | 'label'>, lang: Lang = activeLang()): string {
  const label = field.label;
  if (label && typeof label === 'object') {
    const text = label[lang] ?? label[lang === 'ko' ? 'en' : 'ko'];
    if (text && text !== field.key) return text;
  } else if (label && label !== field.key) {
    return label;
  }
  // A field without a label of its own comes with its key as the label: worded here instead.
  const words = field.key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How a field's value reads: the metadata's display kind, else its storage kind. */
export function displayKind(field: Pick<FieldMeta, 'kind' | 'display'>): string {
  return field.display ?? field.kind;
}

/** A column header: the label, with the unit for money (STYLE: 원 in the header, not in every cell). */
export function columnTitle(field: FieldMeta, lang: Lang = activeLang()): string {
  const label = fieldLabel(field, lang);
  return displayKind(field) === 'money' ? `${label} (원)` : label;
}

/** A page path (`/org/agents`) for a resource's row id; `carry` keeps path parameters (`?companyCode=X`). */
export function rowPath(pagePath: string, id: unknown, carry = ''): string {
  return `/${pagePath}/${encodeURIComponent(String(id))}${carry}`;
}

/** Names of the path parameters of a resource path (`/api/mapping/:companyCode/codes` -> companyCode). */
export function pathParams(resource: ResourceMeta): string[] {
  return [...resource.path.matchAll(/[:{]([A-Za-z_]\w*)\}?/g)].map((m) => m[1]!);
}

/**
 * The API path with its parameters taken from the page URL's query (same names), or undefined
 * while one is missing; `carry` is the query string that keeps them on detail and form links.
 */
export function resolvePath(resource: ResourceMeta, search: URLSearchParams): { path?: string; missing: string[]; carry: string } {
  const names = pathParams(resource);
  const missing = names.filter((n) => !search.get(n));
  if (missing.length) return { missing, carry: '' };
  const path = resource.path.replace(/[:{]([A-Za-z_]\w*)\}?/g, (_, n: string) => encodeURIComponent(search.get(n)!));
  const carry = names.length ? `?${new URLSearchParams(names.map((n) => [n, search.get(n)!])).toString()}` : '';
  return { path, missing, carry };
}
