import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { DomainError } from '@csp/domain';
import { AppError, type ErrorName, type FieldError } from './errors.js';
import { fail } from './envelope.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** `/items/0/amount` -> `items.0.amount`; a root-level issue is reported under the request part. */
function fieldOf(instancePath: string | undefined, context: string | undefined): string {
  const path = (instancePath ?? '').replace(/^\//, '').split('/').filter(Boolean).join('.');
  return path || context || 'request';
}

function zodFieldErrors(err: ZodError): FieldError[] {
  return err.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'request',
    message: issue.message,
  }));
}

function pgErrorName(code: string): { name: ErrorName; message?: string } | undefined {
  if (code === '23505') return { name: 'DUPLICATE_DATA' };
  if (code === '23503') return { name: 'BAD_REQUEST', message: 'The data is referenced by or refers to missing data' };
  if (code === '23502' || code === '23514') return { name: 'BAD_REQUEST', message: 'A required value is missing or not allowed' };
  if (code === '22001') return { name: 'BAD_REQUEST', message: 'A value is too long' };
  if (code === '22003') return { name: 'BAD_REQUEST', message: 'A numeric value is out of range' };
  return undefined;
}

function isPgError(err: unknown): err is { code: string; severity: string } {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' &&
    typeof (err as { severity?: unknown }).severity === 'string';
}

function httpStatusOf(name: ErrorName): number {
  return new AppError(name).statusCode;
}

/** Maps anything thrown in a route to the spec 7 envelope; unknown errors are logged and hidden. */
export function errorHandler(this: FastifyInstance, error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const send = (name: ErrorName, message?: string, data?: unknown) =>
    reply.code(httpStatusOf(name)).send(fail(name, message, data));

  if (error instanceof AppError) {
    if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(error.statusCode).send(fail(error.errorName, error.message, error.data));
  }

  const fastifyError = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    const errors = fastifyError.validation.map((issue) => ({
      field: fieldOf(issue.instancePath, fastifyError.validationContext),
      message: issue.message ?? 'is invalid',
    }));
    return send('INVALID_PARAMETER', undefined, { errors });
  }
  if (error instanceof ZodError) {
    return send('INVALID_PARAMETER', undefined, { errors: zodFieldErrors(error) });
  }
  if (error instanceof DomainError) {
    const field = (error as { field?: string }).field;
    return send('INVALID_PARAMETER', error.message, field ? { errors: [{ field, message: error.message }] } : undefined);
  }
  if (isPgError(error)) {
    const mapped = pgErrorName(error.code);
    if (mapped) {
      request.log.info({ pgCode: error.code, detail: (error as { detail?: string }).detail }, 'database constraint');
      return send(mapped.name, mapped.message);
    }
  }

  const code = typeof fastifyError.code === 'string' ? fastifyError.code : '';
  if (code === 'FAST_JWT_EXPIRED' || code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') return send('TOKEN_EXPIRED');
  if (code.startsWith('FST_JWT_') || code.startsWith('FAST_JWT_')) return send('UNAUTHORIZED', 'Invalid token');

  const status = fastifyError.statusCode ?? 500;
  if (status === 413 || code === 'FST_REQ_FILE_TOO_LARGE') return send('BAD_REQUEST', 'Request body is too large');
  if (status >= 400 && status < 500 && code.startsWith('FST_')) {
    const name: ErrorName = status === 401 ? 'UNAUTHORIZED' : status === 403 ? 'FORBIDDEN' : status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST';
    return send(name, error.message);
  }

  request.log.error({ err: error }, 'unhandled error');
  return send('INTERNAL_ERROR');
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(fail('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`));
}
