import type { FastifyRequest } from 'fastify';

/** The caller's user id for created_by/updated_by columns (null for system calls). */
export function actorId(request: FastifyRequest): number | null {
  return request.user?.userId ?? null;
}
