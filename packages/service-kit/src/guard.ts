import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type pg from 'pg';
import type { Redis } from 'ioredis';
import type { PermCode } from '@csp/db';
import { authenticate } from './auth.js';
import { AppError } from './errors.js';
import { createPermissions, type Permissions } from './permission-cache.js';

export type { PermCode };

export interface PermissionRequirement {
  menu: string;
  perm: PermCode;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `perm(menu, perm)`: JWT and a grant for (menu, perm) required. */
    permission?: PermissionRequirement;
    /** Set by `authenticated()` or `publicRoute()`. */
    access?: 'public' | 'authenticated';
  }
  interface FastifyInstance {
    permissions: Permissions;
  }
}

/** Route config: JWT + grant of (menu, perm). */
export function perm(menu: string, permCode: PermCode): { permission: PermissionRequirement } {
  return { permission: { menu, perm: permCode } };
}

/** Route config: any logged-in ACTIVE user. */
export function authenticated(): { access: 'authenticated' } {
  return { access: 'authenticated' };
}

/** Route config: no token (only /api/auth/**, /api/health, docs). */
export function publicRoute(): { access: 'public' } {
  return { access: 'public' };
}

interface RouteAccess {
  method: string;
  url: string;
  declared: boolean;
}

const routeRegistry = new WeakMap<FastifyInstance, RouteAccess[]>();

function isDeclared(config: { permission?: PermissionRequirement; access?: string } | undefined): boolean {
  return Boolean(config?.permission) || config?.access === 'public' || config?.access === 'authenticated';
}

/** Throws listing every route without `perm()`, `authenticated()` or `publicRoute()`. Call after `ready()`. */
export function assertAllRoutesGuarded(app: FastifyInstance): void {
  const routes = routeRegistry.get(app);
  if (!routes) throw new Error('assertAllRoutesGuarded: the app was not built with createServiceApp');
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
  const missing = routes
    .filter((r) => !r.declared)
    .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
    .map((r) => `${r.method} ${r.url}`);
  if (missing.length > 0) {
    throw new Error(`Routes without an access declaration (perm/authenticated/publicRoute):\n  ${missing.join('\n  ')}`);
  }
}

export interface GuardOptions {
  pool: pg.Pool;
  redis: Redis;
  cacheTtlMs?: number;
}

const guardPlugin: FastifyPluginAsync<GuardOptions> = async (app, options) => {
  const routes: RouteAccess[] = [];
  routeRegistry.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const declared = isDeclared(route.config);
    for (const method of methods) routes.push({ method, url: route.url, declared });
    if (route.config?.access === 'public' && route.schema) {
      (route.schema as Record<string, unknown>).security = [];
    }
  });

  const { permissions, close } = await createPermissions({
    pool: options.pool,
    redis: options.redis,
    log: app.log,
    ttlMs: options.cacheTtlMs,
  });
  app.decorate('permissions', permissions);
  app.addHook('onClose', close);

  app.addHook('onRequest', async (request) => {
    request.user = undefined;
    if (request.is404) return;
    const config = request.routeOptions.config;
    if (config.access === 'public') return;
    if (!isDeclared(config)) throw new AppError('FORBIDDEN', 'Route has no access declaration');
    const claims = authenticate(request);
    // The agent link and roles are read as stored now (cached briefly, cleared on change), not taken
    // from the token: an unlink or a role change applies on the very next request.
    const live = await permissions.currentUser(claims.userId);
    const user = { ...claims, agentId: live.agentId, roleCodes: live.roleCodes };
    request.user = user;
    if (config.permission) {
      await permissions.require(user.userId, config.permission.menu, config.permission.perm);
    }
  });
};

export const guard = fp(guardPlugin, { name: 'csp-guard', fastify: '5.x', dependencies: ['csp-jwt'] });
