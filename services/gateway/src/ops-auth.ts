import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from 'undici';
import { failure } from './envelope.js';

/** The cookie that carries the operator's access token to /ops pages (the browser sends no bearer header there). */
export const OPS_COOKIE = 'csp_ops';
export const OPS_ROLE = 'SUPER_ADMIN';

export interface OpsUser {
  userId: number;
  loginId: string;
  roleCodes: string[];
}

export type OpsIdentity = { kind: 'ok'; user: OpsUser; token: string } | { kind: 'unauthorized' } | { kind: 'forbidden' };

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const CACHE_MS = 30_000;

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The token of an /ops request: the bearer header, else the /ops cookie. */
export function opsToken(request: FastifyRequest): string | undefined {
  const bearer = BEARER.exec(request.headers.authorization ?? '')?.[1];
  return bearer ?? cookieValue(request.headers.cookie, OPS_COOKIE);
}

/**
 * Who holds a token, asked of auth-platform (`GET /api/auth/me`), which verifies it and the user's status:
 * the gateway keeps no secret and no database. Answers are cached for 30 s per token, so the dashboard's
 * polling costs one call per half minute.
 */
export function createOpsAuthenticator(authPool: Pool, timeoutMs: number) {
  const cache = new Map<string, { at: number; identity: OpsIdentity }>();

  async function identify(token: string, requestId: string): Promise<OpsIdentity> {
    const hit = cache.get(token);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.identity;
    let identity: OpsIdentity;
    try {
      const res = await authPool.request({
        path: '/api/auth/me',
        method: 'GET',
        headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId },
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = (await res.body.json()) as { data?: { userId?: number; loginId?: string; roleCodes?: string[] } };
      if (res.statusCode !== 200 || !body.data?.roleCodes) {
        identity = { kind: 'unauthorized' };
      } else {
        const user = { userId: Number(body.data.userId), loginId: String(body.data.loginId), roleCodes: body.data.roleCodes };
        identity = user.roleCodes.includes(OPS_ROLE) ? { kind: 'ok', user, token } : { kind: 'forbidden' };
      }
    } catch {
      return { kind: 'unauthorized' }; // auth-platform unreachable: no access, nothing cached
    }
    if (cache.size > 1000) cache.clear();
    cache.set(token, { at: Date.now(), identity });
    return identity;
  }

  return {
    identify,
    /** 401 without a token or with a bad one, 403 for a user who is not SUPER_ADMIN; else the identity. */
    async require(request: FastifyRequest, reply: FastifyReply): Promise<Extract<OpsIdentity, { kind: 'ok' }> | undefined> {
      const token = opsToken(request);
      const identity = token ? await identify(token, request.id) : ({ kind: 'unauthorized' } as const);
      if (identity.kind === 'ok') return identity;
      await reply
        .code(identity.kind === 'forbidden' ? 403 : 401)
        .send(failure(identity.kind === 'forbidden' ? 'FORBIDDEN' : 'UNAUTHORIZED'));
      return undefined;
    },
  };
}
