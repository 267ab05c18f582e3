import type { FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '@csp/db';
import type { AnyRow, Resource, ResourceContext, ServiceApp } from '@csp/service-kit';

/** The resource's row with that key (fields under their keys, as `toResp` takes it), or undefined. */
export async function findRow(resource: Resource, db: Db | Transaction<Database>, id: number | string): Promise<AnyRow | undefined> {
  return resource.select(db).where(sql.ref(resource.idRef), '=', id).executeTakeFirst();
}

/** What `resource.toInsert/toUpdate` need inside a hand-written write. */
export function writeContext(app: ServiceApp, request: FastifyRequest, trx: Transaction<Database>): ResourceContext {
  return { user: request.user, userId: request.user?.userId ?? null, request, cipher: app.cipher, trx };
}
