import type { z } from 'zod';
import type { Db } from '@csp/db';
import type { ResourceContext, ResourceFilters } from '@csp/service-kit';

/** A resource's extra list filters, with `apply` seeing the query typed from `shape`. */
export function filters<S extends z.ZodRawShape>(definition: ResourceFilters<S>): ResourceFilters {
  return definition;
}

/** The write transaction of a resource hook (validate, beforeWrite), seen with the schema's tables. */
export function trxOf(ctx: ResourceContext): Db {
  return ctx.trx as Db;
}
