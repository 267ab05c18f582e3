import type { FastifyRequest } from 'fastify';
import { AppError, type AuthUser } from '@csp/service-kit';

/**
 * The kit's guard sets `request.user` (typed through @fastify/jwt). The built .d.ts of the kit does
 * not carry that augmentation to consumers, so the field is read through this one typed accessor.
 */
function userOf(request: FastifyRequest): AuthUser | undefined {
  return (request as FastifyRequest & { user?: AuthUser }).user;
}

/** The verified caller of a guarded route (the guard has already rejected anonymous calls). */
export function currentUser(request: FastifyRequest): AuthUser {
  const user = userOf(request);
  if (!user) throw new AppError('UNAUTHORIZED');
  return user;
}

export function actorId(request: FastifyRequest): number | null {
  return userOf(request)?.userId ?? null;
}
