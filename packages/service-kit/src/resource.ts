import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type Kysely, type SqlBool } from 'kysely';
import { z } from 'zod';
import { AppError, notFound } from './errors.js';
import { envelope, ok, pageResponse } from './envelope.js';
import { perm } from './guard.js';
import { listQuery, zId } from './schemas.js';
import { applySort, paginate } from './paginate.js';
import { streamRows } from './cursor.js';
import { sendSpreadsheet, type SpreadsheetColumn } from './spreadsheet.js';
import { applyListFilters, bareColumn, baseSelect, type ResourceListQuery } from './resource-query.js';
import type { AnyRow, ResourceContext, ResourceDefinition } from './resource-types.js';

export type { ResourceContext, ResourceDefinition, ResourceDelete } from './resource-types.js';

/** Identity helper that gives a resource definition its types (see ResourceDefinition). */
export function defineResource<
  Resp extends z.ZodObject,
  Save extends z.ZodObject,
  Filters extends z.ZodRawShape = Record<never, never>,
  Row extends AnyRow = AnyRow,
>(def: ResourceDefinition<Resp, Save, Filters, Row>): ResourceDefinition<Resp, Save, Filters, Row> {
  return def;
}

function today(): string {
  return new Date().toISOString().slice(0, 10).replaceAll('-', '');
}

/**
 * Registers list, /excel, detail, create, update and delete for a definition. Every route is
 * guarded by (menu, READ|CREATE|UPDATE|DELETE) and every write is change-logged with before/after.
 */
export function registerResource(app: FastifyInstance<any, any, any, any, any>, def: ResourceDefinition<any, any, any, any>): void {
  const r = (app as FastifyInstance).withTypeProvider<ZodTypeProvider>();
  // Tables are named at run time by the definition, so writes go through an untyped Kysely.
  const db = () => app.db as unknown as Kysely<any>;
  const idParam = def.idParam ?? 'id';
  const itemPath = `${def.basePath}/:${idParam}`;
  const params = z.object({ [idParam]: zId });
  const query = listQuery(Object.keys(def.sortable), def.filters?.shape ?? {});
  const exportQuery = query.omit({ pageNum: true, pageSize: true });
  const tags = def.tags ?? [def.name];
  const writeId = bareColumn(def.idColumn);
  const softDelete = def.delete && def.delete.mode === 'soft' ? def.delete : undefined;
  const updateBody = def.versionColumn ? def.saveSchema.extend({ version: z.number().int().min(0) }) : def.saveSchema;
  const sortOptions = { sortable: def.sortable, defaultSort: def.defaultSort };

  const idOf = (request: FastifyRequest) => (request.params as Record<string, number>)[idParam]!;
  const context = (request: FastifyRequest, trx: ResourceContext['trx']): ResourceContext => ({
    user: request.user,
    userId: request.user?.userId ?? null,
    request,
    cipher: app.cipher,
    trx,
  });
  const changeLog = (request: FastifyRequest, action: 'CREATE' | 'UPDATE' | 'DELETE', id: unknown, before?: unknown, after?: unknown) =>
    request.changeLog({ menuCode: def.menu, tableName: def.table, recordId: id as number, action, before, after });

  /** The row to update/delete, locked, soft-deleted rows excluded. */
  const lockRow = (trx: ResourceContext['trx'], id: number) => {
    let qb = trx.selectFrom(def.table).selectAll().where(sql.ref(writeId), '=', id);
    if (softDelete) qb = qb.where(sql<SqlBool>`${sql.ref(bareColumn(softDelete.column))} is distinct from ${softDelete.value}`);
    return qb.forUpdate().executeTakeFirst() as Promise<AnyRow | undefined>;
  };

  r.get(
    def.basePath,
    {
      config: perm(def.menu, 'READ'),
      schema: { tags, summary: `List ${def.name}`, querystring: query, response: { 200: pageResponse(def.respSchema) } },
    },
    async (request) => {
      const q = request.query as ResourceListQuery & { pageNum: number; pageSize: number };
      const qb = applyListFilters(def, baseSelect(def, app.db), q);
      const page = await paginate(qb, q as never, sortOptions);
      return ok({ ...page, list: page.list.map((row) => def.toResp(row)) });
    },
  );

  if (def.exportPerm !== false) {
    const columns: Array<SpreadsheetColumn<AnyRow>> =
      def.exportColumns ?? Object.keys(def.respSchema.shape).map((key) => ({ header: key, key, value: (resp: AnyRow) => resp[key] }));
    r.get(
      `${def.basePath}/excel`,
      {
        config: perm(def.menu, def.exportPerm ?? 'READ'),
        schema: { tags, summary: `Export ${def.name} (xlsx)`, querystring: exportQuery },
      },
      async (request, reply: FastifyReply) => {
        const q = request.query as ResourceListQuery;
        const qb = applySort(applyListFilters(def, baseSelect(def, app.db), q), q as never, sortOptions);
        const rows = streamRows<AnyRow>(app.pool, qb.compile());
        // Default columns read the response shape; explicit exportColumns read the raw row.
        const mapped = def.exportColumns ? rows : mapRows(rows, (row) => def.toResp(row) as AnyRow);
        return sendSpreadsheet(reply, { fileName: `${def.name}-${today()}.xlsx`, sheetName: def.name, columns, rows: mapped });
      },
    );
  }

  r.get(
    itemPath,
    {
      config: perm(def.menu, 'READ'),
      schema: { tags, summary: `Get ${def.name}`, params, response: { 200: envelope(def.respSchema) } },
    },
    async (request) => {
      const id = idOf(request);
      const row = await baseSelect(def, app.db).where(sql.ref(def.idColumn), '=', id).executeTakeFirst();
      if (!row) throw notFound(`${def.name} ${id}`);
      return ok(def.toResp(row));
    },
  );

  r.post(
    def.basePath,
    {
      config: perm(def.menu, 'CREATE'),
      schema: { tags, summary: `Create ${def.name}`, body: def.saveSchema, response: { 200: envelope(z.object({ id: z.number() })) } },
    },
    async (request) => {
      const body = request.body as AnyRow;
      const created = await db().transaction().execute(async (trx) => {
        const ctx = context(request, trx);
        await def.validate?.(body, ctx);
        return (await trx.insertInto(def.table).values(def.toInsert(body, ctx)).returningAll().executeTakeFirstOrThrow()) as AnyRow;
      });
      const id = Number(created[writeId]);
      changeLog(request, 'CREATE', id, undefined, created);
      return ok({ id });
    },
  );

  if (def.update !== false) r.put(
    itemPath,
    {
      config: perm(def.menu, 'UPDATE'),
      schema: { tags, summary: `Update ${def.name}`, params, body: updateBody, response: { 200: envelope() } },
    },
    async (request) => {
      const id = idOf(request);
      const body = request.body as AnyRow;
      const { before, after } = await db().transaction().execute(async (trx) => {
        const existing = await lockRow(trx, id);
        if (!existing) throw notFound(`${def.name} ${id}`);
        if (def.versionColumn && Number(existing[bareColumn(def.versionColumn)]) !== body.version) {
          throw new AppError('RULE_VERSION_CONFLICT');
        }
        const ctx = context(request, trx);
        await def.validate?.(body, ctx, existing);
        const values: AnyRow = { ...def.toUpdate(body, ctx) };
        if (def.versionColumn) {
          const version = bareColumn(def.versionColumn);
          values[version] = sql`${sql.ref(version)} + 1`;
        }
        const updated = (await trx
          .updateTable(def.table)
          .set(values)
          .where(sql.ref(writeId), '=', id)
          .returningAll()
          .executeTakeFirstOrThrow()) as AnyRow;
        return { before: existing, after: updated };
      });
      changeLog(request, 'UPDATE', id, before, after);
      return ok();
    },
  );

  if (def.delete !== false) {
    r.delete(
      itemPath,
      {
        config: perm(def.menu, 'DELETE'),
        schema: { tags, summary: `Delete ${def.name}`, params, response: { 200: envelope() } },
      },
      async (request) => {
        const id = idOf(request);
        const { before, after } = await db().transaction().execute(async (trx) => {
          const existing = await lockRow(trx, id);
          if (!existing) throw notFound(`${def.name} ${id}`);
          if (!softDelete) {
            await trx.deleteFrom(def.table).where(sql.ref(writeId), '=', id).execute();
            return { before: existing, after: undefined };
          }
          const updated = (await trx
            .updateTable(def.table)
            .set({ [bareColumn(softDelete.column)]: softDelete.value })
            .where(sql.ref(writeId), '=', id)
            .returningAll()
            .executeTakeFirstOrThrow()) as AnyRow;
          return { before: existing, after: updated };
        });
        changeLog(request, 'DELETE', id, before, after);
        return ok();
      },
    );
  }
}

async function* mapRows<A, B>(rows: AsyncIterable<A>, map: (row: A) => B): AsyncGenerator<B> {
  for await (const row of rows) yield map(row);
}
