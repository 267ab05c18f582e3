/// <reference types="@fastify/jwt" preserve="true" />
import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from './errors.js';

/** The logged-in user of spec 5.1. */
export interface AuthUser {
  userId: number;
  loginId: string;
  userName: string;
  roleCodes: string[];
  agentId: number | null;
}

/** Access-token claims (binding: auth-platform signs, every service verifies). */
export interface AccessTokenPayload {
  sub: string;
  uid: number;
  loginId: string;
  userName: string;
  roleCodes: string[];
  agentId: number | null;
  typ: 'access';
  iat?: number;
  exp?: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessTokenPayload;
    user: AuthUser | undefined;
  }
}

export const ACCESS_TOKEN_TTL = '120m';
export const ACCESS_TOKEN_TTL_SECONDS = 120 * 60;

const payloadSchema = z.object({
  sub: z.string(),
  uid: z.number().int().positive(),
  loginId: z.string(),
  userName: z.string(),
  roleCodes: z.array(z.string()),
  agentId: z.number().int().nullable(),
  typ: z.literal('access'),
});

export function toAccessTokenPayload(user: AuthUser): AccessTokenPayload {
  return {
    sub: String(user.userId),
    uid: user.userId,
    loginId: user.loginId,
    userName: user.userName,
    roleCodes: user.roleCodes,
    agentId: user.agentId,
    typ: 'access',
  };
}

/** Signs an access token (HS256, 120 min unless `expiresIn` says otherwise: seconds or '10m'). */
export function signAccessToken(app: FastifyInstance, user: AuthUser, expiresIn: number | string = ACCESS_TOKEN_TTL): string {
  return app.jwt.sign(toAccessTokenPayload(user), { expiresIn });
}

/** Bearer token -> AuthUser. Missing, malformed, tampered or non-access token: E401; expired: A001. */
export function authenticate(request: FastifyRequest): AuthUser {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) throw new AppError('UNAUTHORIZED');
  let decoded: unknown;
  try {
    decoded = request.server.jwt.verify(match[1]!);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FAST_JWT_EXPIRED' || code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') {
      throw new AppError('TOKEN_EXPIRED');
    }
    throw new AppError('UNAUTHORIZED', 'Invalid token');
  }
  const parsed = payloadSchema.safeParse(decoded);
  if (!parsed.success) throw new AppError('UNAUTHORIZED', 'Invalid token');
  const p = parsed.data;
  return { userId: p.uid, loginId: p.loginId, userName: p.userName, roleCodes: p.roleCodes, agentId: p.agentId };
}

const jwtPlugin: FastifyPluginAsync<{ secret: string }> = async (app, options) => {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256' },
    verify: { algorithms: ['HS256'] },
  });
};

export const jwtAuth = fp(jwtPlugin, { name: 'csp-jwt', fastify: '5.x' });
