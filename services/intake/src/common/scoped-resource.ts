import type { FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '@csp/db';
import {
  AppError,
  envelope,
  listPage,
  notFound,
  ok,
  pageResponse,
  perm,
  zId,
  type Resource,
  type ResourceContext,
  type ServiceApp,
} from '@csp/service-kit';

/**
 * A field-table resource that lives under a parent in the path (/api/mapping/{companyCode}/codes,
 * /api/upload-templates/{id}/columns): list, detail, create, update and delete like
 * registerResource, with the parent's value filtering every read and written into every new row.
 * The kit's registerResource has no parent path parameter yet (reported to the kit's owner).
 */
export interface ResourceScope {
  /** Path parameter of the parent ('companyCode'). */
  param: string;
  paramSchema: z.ZodType<string | number>;
  /** Field key (declared with .filter()) and column holding the parent's value. */
  field: string;
  column: string;
  /** The parent must exist (E404 otherwise). */
  parentExists(app: ServiceApp, value: string | number): Promise<boolean>;
  parentLabel: string;
  /** Item path parameter (default 'id'). */
  idParam?: string;
  /** Extra checks of a write with the parent's value (body already validated by the schema). */
  validate?(
    body: Record<string, unknown>,
    parent: string | number,
    ctx: ResourceContext,
    existing?: Record<string, unknown>,
  ): Promise<void>;
}

type Row = Record<string, unknown>;

async function insertRow(trx: Transaction<Database>, table: string, values: Row): Promise<Row> {
  const columns = Object.keys(values);
  const { rows } =
    await sql<Row>`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
    values (${sql.join(columns.map((c) => values[c]))}) returning *`.execute(trx);
  return rows[0]!;
}

async function updateRow(
  trx: Transaction<Database>,
  table: string,
  idColumn: string,
  id: number,
  values: Row,
): Promise<Row> {
  const sets = Object.keys(values).map((c) => sql`${sql.ref(c)} = ${values[c]}`);
  const { rows } =
    await sql<Row>`update ${sql.table(table)} set ${sql.join(sets)} where ${sql.ref(idColumn)} = ${id} returning *`.execute(
      trx,
    );
  return rows[0]!;
}

export function registerScopedResource(app: ServiceApp, resource: Resource, scope: ResourceScope): void {
  const idParam = scope.idParam ?? 'id';
  // GET /api/meta/resources describes it like any other resource (its path names the parent parameter)
  app.resourceRegistry.push(resource.meta);
  const { tags } = resource;
  const listParams = z.object({ [scope.param]: scope.paramSchema });
  const itemParams = z.object({ [scope.param]: scope.paramSchema, [idParam]: zId });
  const itemPath = `${resource.path}/:${idParam}`;
  const parentOf = (request: FastifyRequest) =>
    (request.params as Record<string, string | number>)[scope.param]!;
  const idOf = (request: FastifyRequest) => (request.params as Record<string, number>)[idParam]!;
  const context = (request: FastifyRequest, trx: Transaction<Database>): ResourceContext => ({
    user: request.user,
    userId: request.user?.userId ?? null,
    request,
    cipher: app.cipher,
    trx,
  });
  const requireParent = async (value: string | number) => {
    if (!(await scope.parentExists(app, value))) throw notFound(`${scope.parentLabel} ${value}`);
  };
  const lockRow = async (trx: Transaction<Database>, parent: string | number, id: number) => {
    const { rows } = await sql<Row>`select * from ${sql.table(resource.table)}
      where ${sql.ref(resource.idColumn)} = ${id} and ${sql.ref(scope.column)} = ${parent} for update`.execute(
      trx,
    );
    if (!rows[0]) throw notFound(`${resource.name} ${id}`);
    return rows[0];
  };
  const changeLog = (
    request: FastifyRequest,
    action: 'CREATE' | 'UPDATE' | 'DELETE',
    id: number,
    before?: Row,
    after?: Row,
  ) =>
    request.changeLog({
      menuCode: resource.menu,
      tableName: resource.table,
      recordId: id,
      action,
      before,
      after,
    });

  app.get(
    resource.path,
    {
      config: perm(resource.menu, 'READ'),
      schema: {
        tags,
        summary: `List ${resource.name}`,
        params: listParams,
        querystring: resource.schemas.listQuery,
        response: { 200: pageResponse(resource.schemas.response) },
      },
    },
    async (request) => {
      const parent = parentOf(request);
      await requireParent(parent);
      const query = { ...(request.query as Row), [scope.field]: parent } as Row & {
        pageNum: number;
        pageSize: number;
      };
      const page = await listPage(app, resource, query, request.user);
      return ok({ ...page, list: page.list.map((row) => resource.toResp(row, app.cipher)) });
    },
  );

  app.get(
    itemPath,
    {
      config: perm(resource.menu, 'READ'),
      schema: {
        tags,
        summary: `Get ${resource.name}`,
        params: itemParams,
        response: { 200: envelope(resource.schemas.response) },
      },
    },
    async (request) => {
      // by id: the list's own filters (e.g. "newest version only") do not hide a row here
      const alias = resource.idRef.slice(0, resource.idRef.lastIndexOf('.'));
      const row = await resource
        .select(app.db)
        .where(sql.ref(`${alias}.${scope.column}`), '=', parentOf(request))
        .where(sql.ref(resource.idRef), '=', idOf(request))
        .executeTakeFirst();
      if (!row) throw notFound(`${resource.name} ${idOf(request)}`);
      return ok(resource.toResp(row, app.cipher));
    },
  );

  if (resource.ops.create) {
    app.post(
      resource.path,
      {
        config: perm(resource.menu, 'CREATE'),
        schema: {
          tags,
          summary: `Create ${resource.name}`,
          params: listParams,
          body: resource.schemas.save,
          response: { 200: envelope(z.object({ id: z.number() })) },
        },
      },
      async (request) => {
        const parent = parentOf(request);
        await requireParent(parent);
        const body = request.body as Row;
        const created = await app.db.transaction().execute(async (trx) => {
          const ctx = context(request, trx);
          await scope.validate?.(body, parent, ctx);
          const values = { ...(await resource.toInsert(body, ctx)), [scope.column]: parent };
          return insertRow(trx, resource.table, values);
        });
        const id = Number(created[resource.idColumn]);
        changeLog(request, 'CREATE', id, undefined, created);
        return ok({ id });
      },
    );
  }

  if (resource.ops.update) {
    app.put(
      itemPath,
      {
        config: perm(resource.menu, 'UPDATE'),
        schema: {
          tags,
          summary: `Update ${resource.name}`,
          params: itemParams,
          body: resource.schemas.update,
          response: { 200: envelope() },
        },
      },
      async (request) => {
        const parent = parentOf(request);
        const id = idOf(request);
        const body = request.body as Row;
        const { before, after } = await app.db.transaction().execute(async (trx) => {
          const existing = await lockRow(trx, parent, id);
          const version = resource.versionColumn;
          if (version && typeof body.version === 'number' && Number(existing[version]) !== body.version) {
            throw new AppError('RULE_VERSION_CONFLICT');
          }
          const ctx = context(request, trx);
          await scope.validate?.(body, parent, ctx, existing);
          const values: Row = { ...(await resource.toUpdate(body, ctx, existing)) };
          if (version) values[version] = Number(existing[version]) + 1;
          return {
            before: existing,
            after: await updateRow(trx, resource.table, resource.idColumn, id, values),
          };
        });
        changeLog(request, 'UPDATE', id, before, after);
        return ok();
      },
    );
  }

  if (resource.ops.delete) {
    app.delete(
      itemPath,
      {
        config: perm(resource.menu, 'DELETE'),
        schema: {
          tags,
          summary: `Delete ${resource.name}`,
          params: itemParams,
          response: { 200: envelope() },
        },
      },
      async (request) => {
        const id = idOf(request);
        const before = await app.db.transaction().execute(async (trx) => {
          const existing = await lockRow(trx, parentOf(request), id);
          await sql`delete from ${sql.table(resource.table)} where ${sql.ref(resource.idColumn)} = ${id}`.execute(
            trx,
          );
          return existing;
        });
        changeLog(request, 'DELETE', id, before);
        return ok();
      },
    );
  }
}
