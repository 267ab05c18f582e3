import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { envelope, ok } from './envelope.js';
import { authenticated } from './guard.js';
import type { ResourceMeta } from './resource-types.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Metadata of every resource registered on this app (`GET /api/meta/resources`). */
    resourceRegistry: ResourceMeta[];
  }
}

export function registryOf(app: FastifyInstance<any, any, any, any, any>): ResourceMeta[] | undefined {
  return (app as FastifyInstance).resourceRegistry;
}

const fieldMeta = z.object({
  key: z.string(),
  kind: z.string(),
  label: z.string(),
  enumValues: z.array(z.string()).optional(),
  codeGroup: z.string().optional(),
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
 * (every logged-in user may read it; the routes themselves stay guarded).
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
      async () => ok({ resources: app.resourceRegistry.map((m) => ({ ...m, service: app.serviceName })) }),
    );
  },
  { name: 'csp-resource-meta' },
);
