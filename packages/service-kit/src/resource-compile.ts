import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { Db } from '@csp/db';
import {
  columnOf,
  exprOf,
  formatValue,
  isStored,
  querySchemaOf,
  responseSchemaOf,
  saveSchemaOf,
  storeValue,
  type FieldSpec,
  type FieldTable,
} from './fields.js';
import { invalid } from './errors.js';
import { MASKS, UNREADABLE_MASK, writeOnlyColumns, writeOnlyFieldsOf, writeOnlyValue } from './write-only.js';
import { listQuery } from './schemas.js';
import { escapeLike } from './text.js';
import { moneyColumn, rateColumn, type SpreadsheetColumn } from './spreadsheet.js';
import { restrictToOwnAgent } from './row-scope.js';
import { exportHeaderOf, fieldsMetaOf } from './meta.js';
import type { AnyDb, AnyQuery, AnyRow, Resource, ResourceContext, ResourceDeclaration, ResourceFieldMeta, ResourceMeta } from './resource-types.js';
import type { FieldCipher } from './crypto.js';
import type { AuthUser } from './auth.js';

type Entry = [key: string, spec: FieldSpec];

/** Compiles a field-table declaration into the routes' view of a resource. */
export function compileResource<F extends FieldTable>(decl: ResourceDeclaration<F>): Resource {
  const alias = decl.alias ?? decl.table;
  const entries: Entry[] = Object.entries(decl.fields).map(([k, field]) => [k, field.spec]);
  const spec = (key: string): FieldSpec => {
    const s = decl.fields[key]?.spec;
    if (!s) throw new Error(`${decl.name}: unknown field ${key}`);
    return s;
  };
  const expr = (key: string) => exprOf(key, spec(key), alias, decl.fields);

  const idEntry = entries.find(([, s]) => s.kind === 'id') ?? entries.find(([, s]) => s.primaryKey);
  if (!idEntry) throw new Error(`${decl.name}: a field table needs one f.id() (or a .key())`);
  // The kit's item routes take numeric ids; a code key serves lists and exports only.
  if (idEntry[1].kind !== 'id' && (decl.create !== false || decl.update !== false || decl.detail !== false || decl.delete !== false)) {
    throw new Error(`${decl.name}: a resource keyed by a code declares create, update, detail and delete false`);
  }
  const [idKey, idSpec] = idEntry;
  const idColumn = columnOf(idKey, idSpec);
  const versionEntry = entries.find(([, s]) => s.kind === 'version');
  const audit = (role: FieldSpec['audit']) => {
    const e = entries.find(([, s]) => s.audit === role);
    return e ? columnOf(e[0], e[1]) : undefined;
  };
  const auditColumns = { createdBy: audit('createdBy'), updatedBy: audit('updatedBy'), updatedAt: audit('updatedAt') };
  const softDelete = typeof decl.delete === 'object' && decl.delete ? decl.delete : undefined;
  const softValue = softDelete ? (softDelete.value ?? true) : undefined;

  // ---- schemas
  const saveEntries = entries.filter(([, s]) => s.save && isStored(s) && !s.audit);
  const saveShape = Object.fromEntries(saveEntries.map(([k, s]) => [k, saveSchemaOf(s)]));
  const save = z.object(saveShape);
  const updateMode = decl.partialUpdate ? 'patch' : 'save';
  // A write-only (masked/encrypted) field is never required in an update body: absent = unchanged.
  const writeOnlyKeys = new Set(writeOnlyFieldsOf(decl.fields).map((w) => w.key));
  const updateSchemaOf = (k: string, s: FieldSpec) => saveSchemaOf(s, writeOnlyKeys.has(k) ? 'patch' : updateMode);
  const updateShape = Object.fromEntries(saveEntries.filter(([, s]) => !s.createOnly).map(([k, s]) => [k, updateSchemaOf(k, s)]));
  const update = z.object({
    ...updateShape,
    ...(versionEntry ? { version: z.number().int().min(0).optional().describe('the version read; a stale one gives B002') } : {}),
  });
  const visible = entries.filter(([, s]) => !s.hidden);
  const response = z.object(Object.fromEntries(visible.map(([k, s]) => [k, responseSchemaOf(s)])));
  const listVisible = visible.filter(([, s]) => !s.detailOnly);
  const listItem = listVisible.length < visible.length ? response.pick(Object.fromEntries(listVisible.map(([k]) => [k, true]))) : undefined;

  const filterShape: Record<string, z.ZodType> = {};
  for (const [k, s] of entries) {
    if (s.filter === 'eq') filterShape[k] = querySchemaOf(s).optional();
    else if (s.filter === 'range') {
      filterShape[`${k}From`] = querySchemaOf(s).optional();
      filterShape[`${k}To`] = querySchemaOf(s).optional();
    } else if (s.filter === 'in') {
      const one = querySchemaOf(s);
      filterShape[k] = z
        .string()
        .max(2000)
        .transform((v, ctx) => {
          const values: unknown[] = [];
          for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
            const parsed = one.safeParse(part);
            if (!parsed.success) {
              ctx.addIssue({ code: 'custom', message: `"${part}" is not a valid value` });
              return z.NEVER;
            }
            values.push(parsed.data);
          }
          return values;
        })
        .optional();
    } else if (s.filter === 'like') filterShape[k] = z.string().max(s.text?.max ?? 200).optional();
  }
  const sortKeys = entries.filter(([, s]) => s.sort).map(([k]) => k);
  const listQ = listQuery(sortKeys, { ...filterShape, ...(decl.filters?.shape ?? {}) });
  const exportQ = listQ.omit({ pageNum: true, pageSize: true });

  // ---- reads
  const searchKeys = entries.filter(([, s]) => s.search).map(([k]) => k);
  const defaultSortSpec = decl.defaultSort ?? `-${idKey}`;
  const defaultDesc = defaultSortSpec.startsWith('-');
  const defaultSortKey = defaultDesc ? defaultSortSpec.slice(1) : defaultSortSpec;
  spec(defaultSortKey);
  const sortExprOf = (k: string) => {
    const by = spec(k).sortBy;
    return by === undefined ? expr(k) : typeof by === 'string' ? sql.ref(by) : by;
  };
  const sortExpr = Object.fromEntries([...new Set([...sortKeys, defaultSortKey, idKey])].map((k) => [k, sortExprOf(k)]));

  /** FROM with joins and the soft-delete condition, nothing selected (id pages and counts). */
  const selectBase = (db: Db): AnyQuery => {
    const qb = decl.baseQuery ? decl.baseQuery(db as unknown as AnyDb) : (db as unknown as AnyDb).selectFrom(`${decl.table} as ${alias}`);
    return softDelete ? qb.where(sql<SqlBool>`${sql.ref(`${alias}.${softDelete.soft}`)} is distinct from ${softValue}`) : qb;
  };
  const select = (db: Db): AnyQuery => {
    let qb = decl.baseQuery ? decl.baseQuery(db as unknown as AnyDb) : (db as unknown as AnyDb).selectFrom(`${decl.table} as ${alias}`);
    qb = qb.select(visible.map(([k]) => expr(k).as(k)) as never);
    // Stored hidden/encrypted fields are still needed for writes and decryption: select them too.
    const hiddenStored = entries.filter(([, s]) => s.hidden && isStored(s));
    if (hiddenStored.length) qb = qb.select(hiddenStored.map(([k]) => expr(k).as(k)) as never);
    if (softDelete) qb = qb.where(sql<SqlBool>`${sql.ref(`${alias}.${softDelete.soft}`)} is distinct from ${softValue}`);
    return qb;
  };

  const scoped = (qb: AnyQuery, user: AuthUser | undefined): AnyQuery => {
    const scope = decl.agentScope;
    if (!scope) return qb;
    if (typeof scope === 'function') return scope(qb, user);
    const keys = typeof scope === 'string' ? [scope] : scope;
    return restrictToOwnAgent(qb, user, keys.map((k) => expr(k)));
  };

  const applyFilters = (input: AnyQuery, query: AnyRow, user: AuthUser | undefined): AnyQuery => {
    let qb = input;
    const keyword = typeof query.searchKeyword === 'string' ? query.searchKeyword.trim() : '';
    if (keyword && searchKeys.length) {
      const pattern = `%${escapeLike(keyword)}%`;
      const like = (k: string) => {
        const s = spec(k);
        if (s.searchBy) return sql<SqlBool>`${s.searchBy(pattern)}`;
        const e = expr(k);
        const text = ['text', 'code', 'phone', 'email', 'enum'].includes(s.kind) ? e : sql`${e}::text`;
        return sql<SqlBool>`${text} ilike ${pattern}`;
      };
      if (query.searchType) {
        if (!searchKeys.includes(query.searchType)) throw invalid('searchType', `must be one of: ${searchKeys.join(', ')}`);
        qb = qb.where(like(query.searchType));
      } else {
        qb = qb.where((eb: ExpressionBuilder<any, any>) => eb.or(searchKeys.map((k) => like(k) as Expression<SqlBool>)));
      }
    }
    if (decl.dateFilter) {
      const e = expr(decl.dateFilter);
      if (query.startDate) qb = qb.where(sql<SqlBool>`${e} >= ${query.startDate}::date`);
      if (query.endDate) qb = qb.where(sql<SqlBool>`${e} < ${query.endDate}::date + 1`);
    }
    if (decl.statusField && query.status) qb = qb.where(sql<SqlBool>`${expr(decl.statusField)} = ${query.status}`);
    for (const [k, s] of entries) {
      if (!s.filter) continue;
      if (s.filter === 'range') {
        const from = query[`${k}From`];
        const to = query[`${k}To`];
        if (from !== undefined) qb = qb.where(sql<SqlBool>`${expr(k)} >= ${from}`);
        if (to !== undefined) qb = qb.where(sql<SqlBool>`${expr(k)} <= ${to}`);
      } else if (s.filter === 'in') {
        const values = query[k] as unknown[] | undefined;
        if (values && values.length) qb = qb.where(sql<SqlBool>`${expr(k)} in (${sql.join(values)})`);
      } else if (s.filter === 'like') {
        const text = typeof query[k] === 'string' ? query[k].trim() : '';
        if (text) qb = qb.where(sql<SqlBool>`${expr(k)}::text ilike ${`%${escapeLike(text)}%`}`);
      } else if (query[k] !== undefined && query[k] !== null && query[k] !== '') {
        qb = qb.where(sql<SqlBool>`${expr(k)} = ${query[k]}`);
      }
    }
    if (decl.filters) qb = decl.filters.apply(qb, query as never);
    return scoped(qb, user);
  };

  const filterParamNames = ['searchKeyword', 'startDate', 'endDate', 'status', ...Object.keys(filterShape), ...Object.keys(decl.filters?.shape ?? {})];
  const isFiltered = (query: AnyRow, user: AuthUser | undefined) =>
    filterParamNames.some((n) => query[n] !== undefined && query[n] !== '') ||
    (decl.agentScope !== undefined && restrictToOwnAgent.applies(user));

  const responder = (fields: Entry[]) => (row: AnyRow, cipher: FieldCipher): AnyRow => {
    const resp: AnyRow = {};
    for (const [k, s] of fields) {
      let v = row[k];
      if (s.encrypted && v !== null && v !== undefined) {
        try {
          v = cipher.decrypt(String(v));
        } catch (err) {
          // A masked value that does not decrypt is never shown, not even masked.
          if (!s.masked) throw err;
          resp[k] = UNREADABLE_MASK;
          continue;
        }
      }
      v = formatValue(s, v);
      if (s.masked && typeof v === 'string') v = MASKS[s.masked](v);
      resp[k] = v;
    }
    return decl.mapResponse ? decl.mapResponse(resp, row) : resp;
  };
  const toResp = responder(visible);
  /** A cell of the narrow export: the field's response value computed from the selected row. */
  const exportCell = (k: string, s: FieldSpec) => {
    const mask = s.masked ? MASKS[s.masked] : undefined;
    return mask
      ? (row: AnyRow) => {
          const v = formatValue(s, row[k]);
          return typeof v === 'string' ? mask(v) : v;
        }
      : (row: AnyRow) => formatValue(s, row[k]);
  };

  // ---- writes
  // An update replaces the saved fields (README "Updates"), except write-only ones (write-only.ts).
  const columnsOf = (body: AnyRow, ctx: ResourceContext, mode: 'create' | 'update', existing?: AnyRow): AnyRow => {
    const values: AnyRow = mode === 'update' ? writeOnlyColumns(decl.fields, ctx.request, body, existing, ctx.cipher) : {};
    for (const [k, s] of saveEntries) {
      if (mode === 'update' && (s.createOnly || writeOnlyKeys.has(k) || (decl.partialUpdate && body[k] === undefined))) continue;
      let v = storeValue(s, writeOnlyKeys.has(k) ? writeOnlyValue({ field: k, optional: s.save !== 'required' }, body[k], 'create') : body[k]);
      if (s.encrypted && v !== null) v = ctx.cipher.encrypt(String(v));
      values[columnOf(k, s)] = v;
    }
    return values;
  };
  const toInsert = async (body: AnyRow, ctx: ResourceContext) => {
    const values = columnsOf(body, ctx, 'create');
    if (auditColumns.createdBy) values[auditColumns.createdBy] = ctx.userId;
    if (auditColumns.updatedBy) values[auditColumns.updatedBy] = ctx.userId;
    return decl.beforeWrite ? decl.beforeWrite(values, body, ctx) : values;
  };
  const toUpdate = async (body: AnyRow, ctx: ResourceContext, existing: AnyRow) => {
    const values = columnsOf(body, ctx, 'update', existing);
    if (auditColumns.updatedBy) values[auditColumns.updatedBy] = ctx.userId;
    if (auditColumns.updatedAt) values[auditColumns.updatedAt] = new Date();
    return decl.beforeWrite ? decl.beforeWrite(values, body, ctx, existing) : values;
  };

  // ---- export
  const exportEntries = visible.filter(([, s]) => s.export !== false && !s.audit?.endsWith('By'));
  // A 1,000,000-row export selects only its own columns and its cells are read from the selected row
  // itself (no response object per row; money and rates formatted once, by their columns), unless
  // mapResponse or exportExtra may read any field of the response.
  const narrowExport = !decl.mapResponse && !decl.exportExtra?.length && exportEntries.length > 0;
  const exportColumns: Array<SpreadsheetColumn<AnyRow>> = exportEntries
    .map(([k, s]) => {
      const header = exportHeaderOf(k, s);
      const width = s.export ? s.export.width : undefined;
      if (s.kind === 'money' && !s.masked) return moneyColumn(header, k, width ? { width } : {});
      if (s.kind === 'rate' && !s.masked) return rateColumn(header, k, width ? { width } : {});
      const column: SpreadsheetColumn<AnyRow> = { header, key: k };
      if (width) column.width = width;
      if (s.kind === 'json') column.value = (r) => (r[k] === null || r[k] === undefined ? null : JSON.stringify(r[k]));
      else if (narrowExport && !s.encrypted) column.value = exportCell(k, s);
      return column;
    });
  exportColumns.push(...(decl.exportExtra ?? []));
  const exportSelect = !narrowExport
    ? select
    : (db: Db): AnyQuery => {
        const qb = (decl.baseQuery ? decl.baseQuery(db as unknown as AnyDb) : (db as unknown as AnyDb).selectFrom(`${decl.table} as ${alias}`))
          .select(exportEntries.map(([k]) => expr(k).as(k)) as never);
        return softDelete ? qb.where(sql<SqlBool>`${sql.ref(`${alias}.${softDelete.soft}`)} is distinct from ${softValue}`) : qb;
      };
  // Narrow: the selected row itself, its encrypted fields decrypted (and formatted, masked) in place.
  const encryptedExports = exportEntries.filter(([, s]) => s.encrypted);
  const decryptExports = responder(encryptedExports);
  const exportRow = !narrowExport
    ? toResp
    : encryptedExports.length === 0
      ? (row: AnyRow) => row
      : (row: AnyRow, cipher: FieldCipher) => Object.assign(row, decryptExports(row, cipher));

  // ---- metadata
  const fieldsMeta: ResourceFieldMeta[] = fieldsMetaOf(visible, decl.name);
  const idParam = decl.idParam ?? 'id';
  const canDelete = decl.delete !== false;
  const exportPerm = decl.export === undefined ? 'READ' : decl.export;
  const meta: ResourceMeta = {
    name: decl.name,
    path: decl.path,
    ...(decl.listPath ? { listPath: decl.listPath } : {}),
    menu: decl.menu,
    idParam,
    idField: idKey,
    permissions: {
      list: { menu: decl.menu, perm: 'READ' },
      detail: decl.detail === false ? null : { menu: decl.menu, perm: 'READ' },
      create: decl.create === false ? null : { menu: decl.menu, perm: 'CREATE' },
      update: decl.update === false ? null : { menu: decl.menu, perm: 'UPDATE' },
      delete: canDelete ? { menu: decl.menu, perm: 'DELETE' } : null,
      export: exportPerm === false ? null : { menu: decl.menu, perm: exportPerm },
    },
    fields: fieldsMeta,
    defaultSort: defaultSortSpec,
    searchTypes: searchKeys,
    ...(decl.dateFilter ? { dateFilter: decl.dateFilter } : {}),
    ...(decl.statusField ? { statusField: decl.statusField } : {}),
  };

  return {
    declaration: decl as unknown as ResourceDeclaration,
    name: decl.name,
    path: decl.path,
    ...(decl.listPath ? { listPath: decl.listPath } : {}),
    table: decl.table,
    menu: decl.menu,
    tags: decl.tags ? [...decl.tags] : [decl.name],
    idParam,
    idColumn,
    idRef: `${alias}.${idColumn}`,
    ...(versionEntry ? { versionColumn: columnOf(versionEntry[0], versionEntry[1]) } : {}),
    schemas: { save, update, response, listQuery: listQ, exportQuery: exportQ, ...(listItem ? { listItem } : {}) },
    select,
    selectBase,
    applyFilters,
    isFiltered,
    sortOf: (query) => {
      const key = query.sortField ?? defaultSortKey;
      const desc = query.sortField ? query.sortOrder === 'DESC' : query.sortOrder ? query.sortOrder === 'DESC' : defaultDesc;
      return { key: sortExpr[key]!, id: sortExpr[idKey]!, desc };
    },
    orderBy: (qb, query) => {
      const key = query.sortField ?? defaultSortKey;
      const desc = query.sortField ? query.sortOrder === 'DESC' : query.sortOrder ? query.sortOrder === 'DESC' : defaultDesc;
      const dir = desc ? sql`desc` : sql`asc`;
      let ordered = qb.orderBy(sql`${sortExpr[key]!} ${dir}`);
      // The id breaks ties, so pages never overlap or skip rows.
      if (key !== idKey) ordered = ordered.orderBy(sql`${sortExpr[idKey]!} ${dir}`);
      return ordered;
    },
    ...(decl.validate ? { validate: decl.validate } : {}),
    ops: {
      create: decl.create !== false,
      update: decl.update !== false,
      detail: decl.detail !== false,
      delete: decl.delete === false ? false : softDelete ? { mode: 'soft', column: softDelete.soft, value: softValue } : { mode: 'hard' },
      export: exportPerm,
      estimateTotal: Boolean(decl.bigTable),
    },
    toResp,
    ...(listItem ? { toListResp: responder(listVisible) } : {}),
    toInsert,
    toUpdate,
    exportColumns,
    exportSelect,
    exportRow,
    meta,
  };
}

