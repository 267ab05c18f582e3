import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { AppError, duplicate, invalid, notFound } from './errors.js';
import { envelope, ok, pageResponse } from './envelope.js';
import { perm } from './guard.js';
import { listPage } from './list-page.js';
import { sendResourceExport } from './export-route.js';
import { compileResource } from './resource-compile.js';
import { registryOf } from './meta.js';
import { readTarget } from './read-db.js';
import { trackResource, writeOnlyGuard } from './write-only.js';
import type { FieldTable } from './fields.js';
import type { AnyDb, AnyRow, Resource, ResourceContext, ResourceDeclaration } from './resource-types.js';

export type { ResourceContext, ResourceDeclaration, ResourceDelete, Resource, ResourceMeta, ResourceFieldMeta, AgentScope } from './resource-types.js';

/** The response object a field table describes. */
export type ResponseOf<F extends FieldTable> = { [K in keyof F]: F[K]['_value'] | null };

/**
 * Declares a resource once, as a field table (kit v2).
 * The result carries the derived schemas (`schemas.save/update/response/listQuery`) and mappers
 * for hand-written routes, and is what `registerResource` takes.
 */
export function defineResource<F extends FieldTable>(decl: ResourceDeclaration<F>): Resource<ResponseOf<F>> {
  return compileResource(decl) as Resource<ResponseOf<F>>;
}

/** `If-Match: "3"` or body `version`: the version the client read, if it sent one. */
function expectedVersion(request: FastifyRequest, body: AnyRow): number | undefined {
  if (typeof body.version === 'number') return body.version;
  const header = request.headers['if-match'];
  if (typeof header !== 'string' || header.trim() === '*') return undefined;
  const text = header.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
  const version = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(version)) throw invalid('If-Match', 'must be the quoted version number of the row');
  return version;
}

/**
 * Registers list, /excel, detail, create, update and delete of a resource. Every route is guarded
 * by (menu, READ|CREATE|UPDATE|DELETE|EXPORT) and every write is change-logged with before/after.
 */
export function registerResource(app: FastifyInstance<any, any, any, any, any>, resource: Resource): void {
  const r = (app as FastifyInstance).withTypeProvider<ZodTypeProvider>();
  const db = () => app.db as unknown as AnyDb;
  const { idParam, tags, ops } = resource;
  const itemPath = `${resource.path}/:${idParam}`;
  // A numeric id, or a code key (`.key()`): the key field's own rules apply to the path parameter.
  const params = z.object({ [idParam]: resource.idSchema });
  const stringKey = resource.idType === 'string';
  const softDelete = ops.delete && ops.delete.mode === 'soft' ? ops.delete : undefined;
  registryOf(app)?.push(resource.meta);
  trackResource(app, resource);

  const idOf = (request: FastifyRequest) => (request.params as Record<string, number | string>)[idParam]!;
  const context = (request: FastifyRequest, trx: ResourceContext['trx']): ResourceContext => ({
    user: request.user,
    userId: request.user?.userId ?? null,
    request,
    cipher: app.cipher,
    trx,
  });
  const changeLog = (request: FastifyRequest, action: 'CREATE' | 'UPDATE' | 'DELETE', id: unknown, before?: unknown, after?: unknown) =>
    request.changeLog({ menuCode: resource.menu, tableName: resource.table, recordId: id as number | string, action, before, after });

  /** The row to update/delete, locked, soft-deleted rows excluded. */
  const lockRow = (trx: ResourceContext['trx'], id: number | string) => {
    let qb = trx.selectFrom(resource.table).selectAll().where(sql.ref(resource.idColumn), '=', id);
    if (softDelete) qb = qb.where(sql<SqlBool>`${sql.ref(softDelete.column)} is distinct from ${softDelete.value}`);
    return qb.forUpdate().executeTakeFirst() as Promise<AnyRow | undefined>;
  };

  const listItem = resource.schemas.listItem ?? resource.schemas.response;
  const toListResp = resource.toListResp ?? resource.toResp;
  r.get(
    resource.listPath ?? resource.path,
    {
      config: perm(resource.menu, 'READ'),
      schema: { tags, summary: `List ${resource.name}`, querystring: resource.schemas.listQuery, response: { 200: pageResponse(listItem) } },
    },
    async (request) => {
      const q = request.query as AnyRow & { pageNum: number; pageSize: number };
      const page = await listPage(app, resource, q, request.user);
      return ok({ ...page, list: page.list.map((row) => toListResp(row, app.cipher)) });
    },
  );

  if (ops.export !== false) {
    r.get(
      `${resource.path}/excel`,
      {
        config: perm(resource.menu, ops.export),
        schema: { tags, summary: `Export ${resource.name} (xlsx, same filters as the list)`, querystring: resource.schemas.exportQuery },
      },
      async (request, reply: FastifyReply) => sendResourceExport(app, resource, request, reply),
    );
  }

  if (ops.detail) r.get(
    itemPath,
    {
      config: perm(resource.menu, 'READ'),
      schema: { tags, summary: `Get ${resource.name}`, params, response: { 200: envelope(resource.schemas.response) } },
    },
    async (request, reply) => {
      const id = idOf(request);
      const base = resource.applyFilters(resource.select((await readTarget(app, request.user?.userId)).db), {}, request.user);
      const row = await base.where(sql.ref(resource.idRef), '=', id).executeTakeFirst();
      if (!row) throw notFound(`${resource.name} ${id}`);
      const resp = resource.toResp(row, app.cipher);
      if (typeof resp.version === 'number') void reply.header('etag', `"${resp.version}"`);
      return ok(resp);
    },
  );

  if (ops.create) {
    r.post(
      resource.path,
      {
        config: perm(resource.menu, 'CREATE'),
        preValidation: writeOnlyGuard(resource.declaration.fields, 'create'),
        schema: {
          tags,
          summary: `Create ${resource.name}`,
          body: resource.schemas.save,
          response: { 200: envelope(z.object({ id: stringKey ? z.string() : z.number() })) },
        },
      },
      async (request) => {
        const body = request.body as AnyRow;
        const created = await db()
          .transaction()
          .execute(async (trx) => {
            const ctx = context(request, trx);
            await resource.validate?.(body, ctx);
            const values = await resource.toInsert(body, ctx);
            if (stringKey) {
              // The key comes from the body: an existing one is B009 (not the unique violation's generic text).
              const key = values[resource.idColumn];
              const taken = await trx.selectFrom(resource.table).select(sql.ref(resource.idColumn).as('k')).where(sql.ref(resource.idColumn), '=', key).executeTakeFirst();
              if (taken) throw duplicate(`${resource.name} ${String(key)} exists already`);
            }
            return (await trx.insertInto(resource.table).values(values).returningAll().executeTakeFirstOrThrow()) as AnyRow;
          });
        const id = stringKey ? String(created[resource.idColumn]) : Number(created[resource.idColumn]);
        changeLog(request, 'CREATE', id, undefined, created);
        return ok({ id });
      },
    );
  }

  if (ops.update) {
    r.put(
      itemPath,
      {
        config: perm(resource.menu, 'UPDATE'),
        preValidation: writeOnlyGuard(resource.declaration.fields, 'update'),
        schema: { tags, summary: `Update ${resource.name}`, params, body: resource.schemas.update, response: { 200: envelope() } },
      },
      async (request) => {
        const id = idOf(request);
        const body = request.body as AnyRow;
        const expected = resource.versionColumn ? expectedVersion(request, body) : undefined;
        const { before, after } = await db()
          .transaction()
          .execute(async (trx) => {
            const existing = await lockRow(trx, id);
            if (!existing) throw notFound(`${resource.name} ${id}`);
            const version = resource.versionColumn;
            if (version && expected !== undefined && Number(existing[version]) !== expected) {
              throw new AppError('RULE_VERSION_CONFLICT');
            }
            const ctx = context(request, trx);
            await resource.validate?.(body, ctx, existing);
            const values: AnyRow = { ...(await resource.toUpdate(body, ctx, existing)) };
            if (version) values[version] = sql`${sql.ref(version)} + 1`;
            const updated = (await trx
              .updateTable(resource.table)
              .set(values)
              .where(sql.ref(resource.idColumn), '=', id)
              .returningAll()
              .executeTakeFirstOrThrow()) as AnyRow;
            return { before: existing, after: updated };
          });
        changeLog(request, 'UPDATE', id, before, after);
        return ok();
      },
    );
  }

  if (ops.delete) {
    r.delete(
      itemPath,
      {
        config: perm(resource.menu, 'DELETE'),
        schema: { tags, summary: `Delete ${resource.name}`, params, response: { 200: envelope() } },
      },
      async (request) => {
        const id = idOf(request);
        const { before, after } = await db()
          .transaction()
          .execute(async (trx) => {
            const existing = await lockRow(trx, id);
            if (!existing) throw notFound(`${resource.name} ${id}`);
            if (!softDelete) {
              await trx.deleteFrom(resource.table).where(sql.ref(resource.idColumn), '=', id).execute();
              return { before: existing, after: undefined };
            }
            const updated = (await trx
              .updateTable(resource.table)
              .set({ [softDelete.column]: softDelete.value })
              .where(sql.ref(resource.idColumn), '=', id)
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
