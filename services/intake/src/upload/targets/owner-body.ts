import { z } from 'zod';
import { defineResource, type FieldTable } from '@csp/service-kit';
import type { CellValue } from '../value-types.js';

/** A save body typed from the owner's field table: required keys, then optional (nullable) ones. */
export type SaveBody<F extends FieldTable, Req extends keyof F, Opt extends keyof F = never> = {
  [K in Req]: F[K]['_value'];
} & { [K in Opt]?: F[K]['_value'] | null };

/** What a row schema may depend on: the template's carrier. */
export interface RowScope {
  companyCode: string | null;
}

/** An imported row checked by the owner's save body, with intake's own import-only fields. */
export interface OwnerRow<B, X> {
  body: B;
  extra: X;
}

/** The owning resource (its shared field table) as the kit compiles it: only `schemas.save` is used. */
export interface OwnerResource {
  name: string;
  path: string;
  table: string;
  menu: string;
  fields: FieldTable;
}

interface OwnerBodySpec<X extends z.ZodRawShape> {
  /** The owner's save schema: a shared field table (compiled by the kit) or a workflow's body. */
  owner: OwnerResource | z.ZodType;
  /** The import fields, in the target's order (template target fields, snake_case). */
  fields: readonly string[];
  /** Save keys the import fills from lookups in `prepare` (not checked here), with the field giving them. */
  resolved?: Readonly<Record<string, string>>;
  /** Import field -> body key where it is not the camelCase of the field. */
  keys?: Readonly<Record<string, string>>;
  /** A template value as the body takes it (e.g. a BOOLEAN as Y/N). */
  convert?: Readonly<Record<string, (value: CellValue) => unknown>>;
  /** Value of a blank field (e.g. the template's carrier). */
  defaults?: (scope: RowScope) => Readonly<Record<string, unknown>>;
  /** intake's checks of the fields the owner's body does not have (lookup inputs such as product_code). */
  extra?: X;
}

const camel = (field: string) => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const INTEGER = /^-?\d{1,15}$/;
/** Field kinds whose save schema takes a JSON number (template values arrive as exact text). */
const NUMBER_KINDS = new Set(['id', 'ref', 'int', 'version']);

function compile(owner: OwnerResource): z.ZodObject {
  return defineResource({ name: owner.name, path: owner.path, table: owner.table, menu: owner.menu, fields: owner.fields })
    .schemas.save;
}

/**
 * An import target's row schema built on the owning resource's save body (spec 2.5: an imported
 * row goes through the same validation as the owner's API). The template's values (snake_case,
 * typed text, booleans, blanks as null) become the owner's body (camelCase; numbers for id/int
 * kinds; blanks absent, so the owner's defaults apply) and are parsed by the owner's save schema.
 * A failure names the import field and carries the owner's zod message.
 */
export function ownerRowSchema<B, X extends z.ZodRawShape = Record<never, never>>(
  spec: OwnerBodySpec<X>,
): (scope: RowScope) => z.ZodType<OwnerRow<B, z.output<z.ZodObject<X>>>> {
  const isResource = !(spec.owner instanceof z.ZodType);
  const full = spec.owner instanceof z.ZodType ? spec.owner : compile(spec.owner);
  const resolved = Object.keys(spec.resolved ?? {});
  // the save body without the keys prepare resolves (a field table's body has no object-level checks)
  const body =
    resolved.length && full instanceof z.ZodObject
      ? z.object(Object.fromEntries(Object.entries(full.shape).filter(([k]) => !resolved.includes(k))))
      : full;
  const numeric = new Set(
    isResource
      ? Object.entries((spec.owner as OwnerResource).fields)
          .filter(([, f]) => NUMBER_KINDS.has(f.spec.kind))
          .map(([k]) => k)
      : [],
  );
  const shapeKeys = full instanceof z.ZodObject ? new Set(Object.keys(full.shape)) : undefined;
  const mapped: Array<[field: string, key: string]> = [];
  for (const field of spec.fields) {
    const key = spec.keys?.[field] ?? camel(field);
    if (resolved.includes(key) || (spec.extra && field in spec.extra)) continue;
    if (shapeKeys && !shapeKeys.has(key))
      throw new Error(`import field ${field}: the owner's save body has no ${key}`);
    mapped.push([field, key]);
  }
  const fieldOf = new Map(mapped.map(([field, key]) => [key, field]));
  for (const [key, field] of Object.entries(spec.resolved ?? {})) fieldOf.set(key, field);
  const extra = z.object(spec.extra ?? ({} as X));

  return (scope) => {
    const defaults = spec.defaults?.(scope) ?? {};
    return z.unknown().transform((input, ctx) => {
      const values = input as Record<string, CellValue | undefined>;
      const candidate: Record<string, unknown> = {};
      for (const [field, key] of mapped) {
        let v: unknown = values[field];
        if (v === null || v === undefined) v = defaults[field];
        else if (numeric.has(key) && typeof v === 'string' && INTEGER.test(v)) v = Number(v);
        if (v !== undefined && spec.convert?.[field]) v = spec.convert[field](v as CellValue);
        if (v !== undefined && v !== null) candidate[key] = v;
      }
      const parsed = body.safeParse(candidate);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const key = issue.path.length ? String(issue.path[0]) : undefined;
          const missing = key !== undefined && issue.code === 'invalid_type' && candidate[key] === undefined;
          ctx.addIssue({
            code: 'custom',
            path: key === undefined ? [] : [fieldOf.get(key) ?? key],
            message: missing ? 'is required' : issue.message,
          });
        }
        return z.NEVER;
      }
      const rest = extra.safeParse(values);
      if (!rest.success) {
        for (const issue of rest.error.issues)
          ctx.addIssue({ code: 'custom', path: issue.path.slice(0, 1), message: issue.message });
        return z.NEVER;
      }
      return { body: parsed.data as B, extra: rest.data };
    });
  };
}
