import { useQuery } from '@tanstack/react-query';
import { dynamicApi } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import { readWarm, writeWarm } from '../api/warm-cache.js';
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

export interface FieldMeta {
  key: string;
  kind: FieldKind;
  label?: string | null;
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

export function useResourceMeta(enabled = true) {
  return useQuery({
    queryKey: ['meta', 'resources'],
    enabled,
    // Changes only with a deployment: revalidated at start (the warm copy is dated 0), then kept a while.
    staleTime: 10 * 60_000,
    retry: false,
    initialData: () => (enabled ? readWarm<ResourceMeta[]>('meta') : undefined),
    initialDataUpdatedAt: 0,
    queryFn: async () => {
      try {
        const resources = unwrap<{ resources: ResourceMeta[] }>(await dynamicApi.GET('/api/meta/resources', {})).resources;
        writeWarm('meta', resources);
        return resources;
      } catch (err) {
        // Not served (yet): the generic pages say so instead of failing.
        if (err instanceof ApiError && (err.status === 404 || err.code === 'E404')) return [];
        throw err;
      }
    },
  });
}

export function idField(resource: ResourceMeta): FieldMeta | undefined {
  return resource.fields.find((f) => (resource.idField ? f.key === resource.idField : f.kind === 'id'));
}

export function fieldLabel(field: FieldMeta): string {
  // A field without a label of its own comes with its key as the label: worded here instead.
  if (field.label && field.label !== field.key) return field.label;
  const words = field.key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
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
