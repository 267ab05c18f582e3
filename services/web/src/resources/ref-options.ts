import type { FieldMeta, FieldRef, ResourceMeta } from './meta.js';

/**
 * How a reference picker maps rows of its target to options and back (pure, unit-tested): the
 * option key is always the value as text (ids from the URL are text, from a row numbers), and the
 * form receives the value in the field's own type again.
 */
export interface RefTarget {
  /** The target resource's metadata (the caller holds its list READ). */
  meta: ResourceMeta;
  /** Where its list answers (`listPath`, else `path`). */
  listPath: string;
  valueField: string;
  labelField: string;
  /** A second value shown under the label (a license or policy number, a login id). */
  secondaryField?: string | undefined;
  /** The value is an id (a number on the wire), not a code. */
  numeric: boolean;
  /** The value is the target's row id: its label is one `GET listPath/{id}` away. */
  byId: boolean;
  picker: 'search' | 'select' | 'tree';
}

export interface RefOption {
  value: string;
  label: string;
  secondary?: string | undefined;
}

export interface TreeOption {
  value: string;
  title: string;
  children: TreeOption[];
}

type Row = Record<string, unknown>;

/** A value on its way to the picker (number, text, or a list of them) as option keys. */
export function toKeys(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.flatMap(toKeys);
  return [String(value)];
}

/** An option key back in the field's type: an id is a number, a code stays text. */
export function fromKey(key: string, numeric: boolean): number | string {
  return numeric && /^\d+$/.test(key) ? Number(key) : key;
}

/** A search result row as an option: the label field, else the value, and the secondary value when it says more. */
export function optionOf(row: Row, target: Pick<RefTarget, 'valueField' | 'labelField' | 'secondaryField'>): RefOption | undefined {
  const value = row[target.valueField];
  if (value === undefined || value === null || value === '') return undefined;
  const key = String(value);
  const labelValue = row[target.labelField];
  const label = labelValue === undefined || labelValue === null || labelValue === '' ? key : String(labelValue);
  const second = target.secondaryField ? row[target.secondaryField] : undefined;
  const secondary = second === undefined || second === null || second === '' || String(second) === label ? undefined : String(second);
  return { value: key, label, ...(secondary ? { secondary } : {}) };
}

/**
 * The options of a search with the current values' options first (a value the search did not find still
 * reads as its name); a current value not named yet (its row still loading) takes the name the search found.
 */
export function mergeOptions(current: readonly (RefOption | undefined)[], found: readonly RefOption[]): RefOption[] {
  const seen = new Set<string>();
  const out: RefOption[] = [];
  const foundByValue = new Map(found.map((o) => [o.value, o]));
  const named = current.map((o) => (o && o.label === o.value ? (foundByValue.get(o.value) ?? o) : o));
  for (const o of [...named, ...found]) {
    if (!o || seen.has(o.value)) continue;
    seen.add(o.value);
    out.push(o);
  }
  return out;
}

/** The organization tree (`GET /api/orgs`) as TreeSelect data keyed like the other pickers. */
export function treeOptions(nodes: readonly { orgId: number; orgName: string; children?: readonly unknown[] | null }[]): TreeOption[] {
  return nodes.map((n) => ({
    value: String(n.orgId),
    title: n.orgName,
    children: treeOptions((n.children ?? []) as { orgId: number; orgName: string; children?: unknown[] }[]),
  }));
}

/** The title of a key in a tree (the label of an organization picked before). */
export function treeTitle(nodes: readonly TreeOption[], key: string): string | undefined {
  for (const n of nodes) {
    if (n.value === key) return n.title;
    const below = treeTitle(n.children, key);
    if (below !== undefined) return below;
  }
  return undefined;
}

/** The field of the target shown under the label: its first searchable, unmasked field besides label and value. */
export function secondaryFieldOf(meta: ResourceMeta, labelField: string, valueField: string): string | undefined {
  const searchable = new Set(meta.searchTypes ?? meta.fields.filter((f) => f.search).map((f) => f.key));
  const usable = (f: FieldMeta) => f.key !== labelField && f.key !== valueField && !f.masked && !f.detailOnly;
  return meta.fields.find((f) => searchable.has(f.key) && usable(f))?.key;
}

/** The picker of a reference field, or undefined when its target is unknown or not readable by the user. */
export function refTargetOf(ref: FieldRef | null | undefined, resources: readonly ResourceMeta[], field?: Pick<FieldMeta, 'kind'>): RefTarget | undefined {
  if (!ref?.resource) return undefined;
  const meta = resources.find((r) => r.name === ref.resource);
  if (!meta) return undefined;
  const idKey = meta.idField ?? meta.fields.find((f) => f.kind === 'id')?.key;
  const valueField = ref.valueField || idKey;
  if (!valueField) return undefined;
  const labelField = ref.labelField || valueField;
  const valueMeta = meta.fields.find((f) => f.key === valueField);
  const numeric = field ? field.kind === 'ref' || field.kind === 'int' || field.kind === 'id' : valueMeta?.kind === 'id';
  return {
    meta,
    listPath: (meta as ResourceMeta & { listPath?: string }).listPath ?? meta.path,
    valueField,
    labelField,
    secondaryField: secondaryFieldOf(meta, labelField, valueField),
    numeric,
    byId: valueField === idKey,
    picker: ref.picker ?? 'search',
  };
}

/** A small target (grades, companies, roles) is read whole: one page of its list. */
export const SELECT_PAGE = 1000;

/**
 * How the row behind one value is read: its detail route, or a list query (a code; a small target without a
 * detail route, e.g. grades, read whole); undefined when neither can find it.
 */
export function rowLookup(target: RefTarget, key: string): { detail: string } | { query: Record<string, string | number> } | undefined {
  const smallWithoutDetail = target.picker === 'select' && target.meta.permissions?.detail === null;
  if (target.byId && !smallWithoutDetail) return { detail: `${target.meta.path}/${encodeURIComponent(key)}` };
  const query = lookupQuery(target, key) ?? (target.picker === 'select' ? { pageSize: SELECT_PAGE } : undefined);
  return query ? { query } : undefined;
}

/** The list query that finds the rows of some values when they are not the target's ids (codes). */
export function lookupQuery(target: RefTarget, key: string): Record<string, string> | undefined {
  const field = target.meta.fields.find((f) => f.key === target.valueField);
  if (field?.filter === 'eq' || field?.filter === 'in') return { [target.valueField]: key, pageSize: '1' };
  const searchable = target.meta.searchTypes ?? target.meta.fields.filter((f) => f.search).map((f) => f.key);
  if (searchable.includes(target.valueField)) return { searchType: target.valueField, searchKeyword: key, pageSize: '20' };
  return undefined;
}

/** The current value's option named by the record's joined name (`ref.displayField`), when it has one. */
export function knownOption(field: Pick<FieldMeta, 'key' | 'ref'>, row: Row | undefined): RefOption | undefined {
  const value = row?.[field.key];
  const name = field.ref?.displayField ? row?.[field.ref.displayField] : undefined;
  if (value == null || value === '' || name == null || name === '') return undefined;
  return { value: String(value), label: String(name) };
}
