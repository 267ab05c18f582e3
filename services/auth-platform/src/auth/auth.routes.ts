import { z } from 'zod';
import { authenticated, envelope, ok, publicRoute, signAccessToken, type ServiceApp } from '@csp/service-kit';
import { currentUser } from '../common/request.js';
import { AuthRepository } from './auth.repository.js';
import { AuthService } from './auth.service.js';

const loginBody = z.object({
  loginId: z.string().trim().min(1, 'is required').max(50),
  password: z.string().min(1, 'is required').max(200),
});

const refreshBody = z.object({
  refreshToken: z.string().min(1, 'is required').max(200),
});

const passwordBody = z.object({
  oldPassword: z.string().min(1, 'is required').max(200),
  newPassword: z.string().min(1, 'is required').max(200),
});

// No body at all arrives as null.
const logoutBody = z.object({ refreshToken: z.string().min(1).max(200).optional() }).nullish();

const sessionUser = z.object({
  userId: z.number(),
  loginId: z.string(),
  userName: z.string(),
  roleCodes: z.array(z.string()),
  agentId: z.number().nullable(),
});

const tokenPair = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int(),
  user: sessionUser,
});

const tags = ['auth'];

export async function authRoutes(app: ServiceApp): Promise<void> {
  const service = new AuthService(new AuthRepository(app.db), (user, expiresIn) => signAccessToken(app, user, expiresIn));

  app.post(
    '/api/auth/login',
    {
      config: publicRoute(),
      schema: { tags, summary: 'Log in with login id and password', body: loginBody, response: { 200: envelope(tokenPair) } },
    },
    async (request) => {
      const userAgent = request.headers['user-agent'];
      const pair = await service.login(request.body.loginId, request.body.password, {
        ipAddress: request.ip ?? null,
        userAgent: typeof userAgent === 'string' ? userAgent : null,
      });
      return ok(pair);
    },
  );

  app.post(
    '/api/auth/refresh',
    {
      config: publicRoute(),
      schema: { tags, summary: 'Exchange a refresh token for a new token pair (single use)', body: refreshBody, response: { 200: envelope(tokenPair) } },
    },
    async (request) => ok(await service.refresh(request.body.refreshToken)),
  );

  // Served from the verified token alone: no database round trip on this hot path.
  app.get(
    '/api/auth/me',
    { config: authenticated(), schema: { tags, summary: 'The logged-in user', response: { 200: envelope(sessionUser) } } },
    async (request) => {
      const { userId, loginId, userName, roleCodes, agentId } = currentUser(request);
      return ok({ userId, loginId, userName, roleCodes, agentId });
    },
  );

  app.put(
    '/api/auth/password',
    {
      config: authenticated(),
      schema: { tags, summary: 'Change the own password (revokes refresh tokens)', body: passwordBody, response: { 200: envelope() } },
    },
    async (request) => {
      const user = currentUser(request);
      await service.changePassword(user.userId, request.body.oldPassword, request.body.newPassword);
      request.changeLog({
        menuCode: 'SYSTEM_USER',
        tableName: 'users',
        recordId: user.userId,
        action: 'UPDATE',
        after: { passwordChanged: true },
      });
      return ok();
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: authenticated(),
      schema: { tags, summary: 'Revoke the given refresh token, or all of the user\'s', body: logoutBody, response: { 200: envelope() } },
    },
    async (request) => {
      await service.logout(currentUser(request).userId, request.body?.refreshToken);
      return ok();
    },
  );
}
