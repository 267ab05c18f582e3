import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { VALUE_SETS } from '@csp/db';
import { envelope, ok } from './envelope.js';
import { authenticated } from './guard.js';
import { isNullable, isStored, type FieldSpec } from './fields.js';
import type { ResourceFieldMeta, ResourceMeta } from './resource-types.js';
import { CODE_GROUP_BY_KEY, CODE_REF_BY_KEY, REF_BY_KEY, REF_TARGETS, SEEDED_CODE_GROUPS, vocabularyLabel, type LocalText, type RefTarget } from './vocabulary.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Metadata of every resource registered on this app (`GET /api/meta/resources`). */
    resourceRegistry: ResourceMeta[];
  }
}

export function registryOf(app: FastifyInstance<any, any, any, any, any>): ResourceMeta[] | undefined {
  return (app as FastifyInstance).resourceRegistry;
}

const localText = z.object({ ko: z.string(), en: z.string() });
const fieldMeta = z.object({
  key: z.string(),
  kind: z.string(),
  label: localText,
  display: z.string(),
  enumValues: z.array(z.string()).optional(),
  codeGroup: z.string().optional(),
  twinOf: z.string().optional(),
  ref: z
    .object({
      resource: z.string(),
      valueField: z.string(),
      labelField: z.string(),
      displayField: z.string().optional(),
      picker: z.enum(['search', 'select', 'tree']),
    })
    .optional(),
  filter: z.string().optional(),
  sort: z.boolean(),
  search: z.boolean(),
  save: z.boolean(),
  required: z.boolean(),
  createOnly: z.boolean(),
  readOnly: z.boolean(),
  nullable: z.boolean(),
  masked: z.string().optional(),
  detailOnly: z.boolean().optional(),
});
const permission = z.object({ menu: z.string(), perm: z.string() }).nullable();
export const resourceMetaSchema = z.object({
  name: z.string(),
  path: z.string(),
  listPath: z.string().optional(),
  menu: z.string(),
  idParam: z.string(),
  idField: z.string(),
  idType: z.enum(['number', 'string']),
  service: z.string().optional(),
  permissions: z.object({ list: permission, detail: permission, create: permission, update: permission, delete: permission, export: permission }),
  fields: z.array(fieldMeta),
  defaultSort: z.string(),
  searchTypes: z.array(z.string()),
  dateFilter: z.string().optional(),
  statusField: z.string().optional(),
});

/**
 * `GET /api/meta/resources`: what the web client needs to render plain list/detail/form pages
 * (any logged-in user; it lists only the resources whose list READ grant the caller holds).
 */
export const resourceMeta = fp(
  async (app: FastifyInstance) => {
    app.decorate('resourceRegistry', [] as ResourceMeta[]);
    app.get(
      '/api/meta/resources',
      {
        config: authenticated(),
        schema: { tags: ['Meta'], summary: 'Resource metadata', response: { 200: envelope(z.object({ resources: z.array(resourceMetaSchema) })) } },
      },
      async (request) => {
        // Only what the caller may read: the resources whose list READ grant it holds.
        const granted = await app.permissions.grantedMenus(request.user!.userId, 'READ');
        const readable = app.resourceRegistry.filter((m) => m.permissions.list !== null && granted.has(m.permissions.list.menu));
        return ok({ resources: readable.map((m) => ({ ...m, service: app.serviceName })) });
      },
    );
  },
  { name: 'csp-resource-meta' },
);

// ---- field metadata (labels, display kinds, codes, references) ----------------------------------

/** A field's label as declared or from the vocabulary; a language missing in both stays undefined. */
export function resolveLabel(key: string, spec: FieldSpec): { ko?: string; en?: string } {
  const vocab = vocabularyLabel(key);
  const en = spec.label ?? vocab?.en;
  const ko = spec.labelKo ?? vocab?.ko;
  return { ...(ko ? { ko } : {}), ...(en ? { en } : {}) };
}

/** Seeded common-code groups by value set (the same array object, else the same values). */
const groupByValues = new Map<readonly string[], string>();
const groupByJoined = new Map<string, string | null>();
for (const [group, values] of Object.entries(VALUE_SETS)) {
  if (!SEEDED_CODE_GROUPS.has(group)) continue;
  groupByValues.set(values, group);
  const joined = values.join();
  groupByJoined.set(joined, groupByJoined.has(joined) ? null : group);
}

function codeGroupOfValues(values: readonly string[]): string | undefined {
  return groupByValues.get(values) ?? groupByJoined.get(values.join()) ?? undefined;
}

type Entry = readonly [string, FieldSpec];

/** The reference a `ref` field describes (target, key, name, the joined name of this resource, picker). */
export function refMetaOf(key: string, spec: FieldSpec, fields: ReadonlyMap<string, FieldSpec>, resourceName?: string): ResourceFieldMeta['ref'] {
  let target: RefTarget | undefined;
  if (spec.kind === 'ref') {
    const targetName = spec.refTarget === undefined ? REF_BY_KEY[key] : spec.refTarget;
    if (!targetName) return undefined;
    target = REF_TARGETS[targetName] ?? { resource: targetName, valueField: `${targetName[0]!.toLowerCase()}${targetName.slice(1)}Id`, labelField: '', picker: 'search' };
  } else if ((spec.kind === 'text' || spec.kind === 'code') && spec.refTarget !== null) {
    target = spec.refTarget ? Object.values(CODE_REF_BY_KEY).find((t) => t.resource === spec.refTarget) : CODE_REF_BY_KEY[key];
    if (!target || target.resource === resourceName || spec.source.type === 'codeName') return undefined;
  }
  if (!target) return undefined;
  const candidates = spec.refShows
    ? [spec.refShows]
    : [key.replace(/Id$/, 'Name'), `${key}Name`, key === target.valueField ? target.labelField : ''];
  const displayField = candidates.find((c) => c && c !== key && fields.has(c) && !fields.get(c)!.hidden);
  return {
    resource: target.resource,
    valueField: target.valueField,
    labelField: target.labelField,
    ...(displayField ? { displayField } : {}),
    picker: spec.refPicker ?? target.picker,
  };
}

/** The metadata of every visible field of a field table, in declaration order. */
export function fieldsMetaOf(visible: readonly Entry[], resourceName?: string): ResourceFieldMeta[] {
  const fields = new Map<string, FieldSpec>(visible);
  const refs = new Map(visible.map(([k, s]) => [k, refMetaOf(k, s, fields, resourceName)] as const));
  // A field that only names another (a code's name, a reference's joined name) is that field's twin.
  const twins = new Map<string, string>();
  const groups = new Map<string, string>();
  for (const [k, s] of visible) {
    if (s.source.type === 'codeName') {
      twins.set(k, s.source.field);
      if (!groups.has(s.source.field)) groups.set(s.source.field, s.source.groupCode);
    }
    const ref = refs.get(k);
    if (ref?.displayField && !twins.has(ref.displayField)) twins.set(ref.displayField, k);
  }
  return visible.map(([k, s]) => {
    const label = resolveLabel(k, s);
    const ref = refs.get(k);
    const codeGroup =
      s.source.type === 'codeName'
        ? s.source.groupCode
        : (s.codeGroup ??
          groups.get(k) ??
          (s.kind === 'enum' && s.enumValues ? codeGroupOfValues(s.enumValues) : undefined) ??
          (s.kind === 'text' || s.kind === 'code' ? CODE_GROUP_BY_KEY[k] : undefined));
    const display = ref
      ? 'ref'
      : s.kind === 'ref'
        ? 'id'
        : s.source.type === 'codeName'
          ? 'text'
          : codeGroup
            ? 'code'
            : s.kind === 'code'
              ? 'text'
              : s.kind === 'enum' && s.enumValues?.length === 2 && s.enumValues[0] === 'Y' && s.enumValues[1] === 'N'
                ? 'yn'
                : s.kind;
    return {
      key: k,
      kind: s.kind,
      label: { ko: label.ko ?? label.en ?? k, en: label.en ?? label.ko ?? k } satisfies LocalText,
      display,
      ...(s.enumValues ? { enumValues: s.enumValues } : {}),
      ...(codeGroup ? { codeGroup } : {}),
      ...(twins.has(k) ? { twinOf: twins.get(k)! } : {}),
      ...(ref ? { ref } : {}),
      ...(s.filter ? { filter: s.filter } : {}),
      sort: Boolean(s.sort),
      search: Boolean(s.search),
      save: Boolean(s.save && isStored(s) && !s.audit),
      required: s.save === 'required',
      createOnly: Boolean(s.createOnly),
      readOnly: !(s.save && isStored(s)),
      nullable: isNullable(s),
      ...(s.masked ? { masked: s.masked } : {}),
      ...(s.detailOnly ? { detailOnly: true } : {}),
    };
  });
}

/** The export header of a field: its export label, else its label, in both languages. */
export function exportHeaderOf(key: string, spec: FieldSpec): LocalText {
  const label = resolveLabel(key, spec);
  const en = (spec.export && spec.export.label) || label.en || key;
  return { ko: label.ko ?? en, en };
}
