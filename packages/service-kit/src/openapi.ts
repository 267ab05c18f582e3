import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { PermissionRequirement } from './guard.js';

/**
 * OpenAPI a client generator can use: every operation gets an `operationId` (derived from method and
 * path unless the route schema names one), `security` (`[]` on public routes, bearer otherwise) and,
 * when guarded by `perm()`, `x-permission: { menu, perm }`.
 */

export const BEARER_SECURITY = [{ bearerAuth: [] as string[] }];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

function pascal(word: string): string {
  return word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * `GET /api/companies/{id}` -> `getCompaniesById`, `PUT /api/settle/{id}/confirm` -> `putSettleByIdConfirm`.
 * Method plus every path segment, so the name is unique per (method, path) and only changes when the
 * wire does. The leading `/api` is dropped (every business path has it).
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  if (segments[0] === 'api' && segments.length > 1) segments.shift();
  const name = segments
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment) ?? /^:(.+)$/.exec(segment);
      return param ? `By${pascal(param[1]!)}` : pascal(segment);
    })
    .join('');
  return `${method.toLowerCase()}${name || 'Root'}`;
}

interface RouteAccessConfig {
  permission?: PermissionRequirement;
  access?: 'public' | 'authenticated';
}

/** Per route: zod -> JSON schema, then `security` and `x-permission` from the route's access declaration. */
export const openApiTransform: SwaggerTransform = (input) => {
  const result = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const config = (input.route.config ?? {}) as RouteAccessConfig;
  const schema: Record<string, unknown> = { ...result.schema };
  if (schema.hide) return { schema, url: result.url };
  schema.security = config.access === 'public' ? [] : BEARER_SECURITY;
  if (config.permission) schema['x-permission'] = { menu: config.permission.menu, perm: config.permission.perm };
  return { schema, url: result.url };
};

type OperationObject = Record<string, unknown> & { operationId?: string };

/**
 * Whole document: one operation object per method (@fastify/swagger shares one object between the
 * methods of a multi-method route) and a unique `operationId` on each.
 */
export const openApiTransformObject: SwaggerTransformObject = (input) => {
  const doc = jsonSchemaTransformObject(input) as { paths?: Record<string, Record<string, unknown>> };
  const used = new Set<string>();
  const unique = (wanted: string) => {
    let name = wanted;
    for (let n = 2; used.has(name); n += 1) name = `${wanted}_${n}`;
    used.add(name);
    return name;
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const copy: Record<string, unknown> = { ...item };
    const methods = HTTP_METHODS.filter((method) => item[method] !== undefined);
    for (const method of methods) {
      const operation = item[method] as OperationObject;
      const sharedBy = methods.filter((other) => item[other] === operation).length;
      const explicit = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      // An explicit id on a multi-method route names all its methods: the method tells them apart.
      const wanted = explicit === undefined ? operationIdOf(method, path) : sharedBy > 1 ? `${explicit}${pascal(method)}` : explicit;
      copy[method] = { operationId: unique(wanted), ...withoutId(operation) };
    }
    paths[path] = copy;
  }
  return { ...doc, paths } as ReturnType<SwaggerTransformObject>;
};

function withoutId(operation: OperationObject): OperationObject {
  const rest = { ...operation };
  delete rest.operationId;
  return rest;
}
