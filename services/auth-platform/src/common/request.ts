import type { FastifyRequest } from 'fastify';
import { AppError, type AuthUser } from '@csp/service-kit';

/** The verified caller of a guarded route (the guard has already rejected anonymous calls). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  return request.user;
}

export function actorId(request: FastifyRequest): number | null {
  return request.user?.userId ?? null;
}
