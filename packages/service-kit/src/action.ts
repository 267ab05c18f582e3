import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifySchema,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceApp } from './app.js';

/** The verbs a state-changing sub-path answers to (spec 4.4/4.5 write them as POST or PUT). */
export const ACTION_METHODS = ['POST', 'PUT'] as const;

/**
 * One route definition for a state-changing sub-path (`/approve`, `/confirm`, `/cancel`, ...) that
 * accepts POST and PUT with the same schema, guard and handler. Same arguments as `app.put(path, opts,
 * handler)`; OpenAPI lists both verbs with distinct operationIds (`postSettleByIdConfirm`,
 * `putSettleByIdConfirm`).
 */
export function action<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  const SchemaCompiler extends FastifySchema = FastifySchema,
>(
  app: ServiceApp,
  path: string,
  opts: RouteShorthandOptions<
    RawServerDefault,
    IncomingMessage,
    ServerResponse,
    RouteGeneric,
    ContextConfig,
    SchemaCompiler,
    ZodTypeProvider,
    FastifyBaseLogger
  >,
  handler: RouteHandlerMethod<
    RawServerDefault,
    IncomingMessage,
    ServerResponse,
    RouteGeneric,
    ContextConfig,
    SchemaCompiler,
    ZodTypeProvider,
    FastifyBaseLogger
  >,
): ServiceApp {
  return app.route<RouteGeneric, ContextConfig, SchemaCompiler>({
    ...opts,
    method: [...ACTION_METHODS],
    url: path,
    handler,
  });
}
