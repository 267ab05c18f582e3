import { hashPassword, verifyPassword } from '@csp/db';
import { AppError, invalid } from '@csp/service-kit';
import { passwordPolicyViolation } from './password-policy.js';
import { hashRefreshToken, newRefreshToken, REFRESH_TOKEN_TTL_MS } from './refresh-token.js';
import type { AuthRepository, LoginUser } from './auth.repository.js';

/** Access token lifetime (spec 8: 120 minutes), also returned as `expiresIn`. */
export const ACCESS_TOKEN_SECONDS = 7200;

export interface SessionUser {
  userId: number;
  loginId: string;
  userName: string;
  roleCodes: string[];
  agentId: number | null;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  user: SessionUser;
}

export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

export type AccessTokenSigner = (user: SessionUser, expiresInSeconds: number) => string | Promise<string>;

let dummyHash: Promise<string> | undefined;
/** Compared against when the login id is unknown, so both paths cost one BCrypt comparison. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-0');
  return dummyHash;
}

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly signAccessToken: AccessTokenSigner,
  ) {}

  /**
   * Wrong password -> A003 (and fail_count + 1); the attempt that reaches LOGIN_FAIL_LIMIT locks the
   * account and already answers A004. LOCKED -> A004. Unknown login id, RETIRED and EXPIRED -> A003,
   * so the answer does not reveal whether such an account exists.
   */
  async login(loginId: string, password: string, client: ClientInfo): Promise<TokenPair> {
    const user = await this.repo.findUserByLoginId(loginId);
    const log = (result: 'SUCCESS' | 'FAIL', failReason: string | null) =>
      this.repo.writeLoginLog({ userId: user?.userId ?? null, loginId, result, failReason, ...client });

    if (!user) {
      await verifyPassword(password, await dummyPasswordHash());
      await log('FAIL', 'UNKNOWN_LOGIN_ID');
      throw new AppError('LOGIN_FAIL');
    }
    if (user.status === 'LOCKED') {
      await log('FAIL', 'ACCOUNT_LOCKED');
      throw new AppError('ACCOUNT_LOCKED');
    }
    const passwordOk = await verifyPassword(password, user.passwordHash);
    if (user.status !== 'ACTIVE') {
      await log('FAIL', `STATUS_${user.status}`);
      throw new AppError('LOGIN_FAIL');
    }
    if (!passwordOk) {
      const failure = await this.repo.recordFailure(user.userId, await this.repo.loginFailLimit());
      if (!failure || failure.locked) {
        await log('FAIL', failure ? `BAD_PASSWORD_LOCKED (${failure.failCount})` : 'ACCOUNT_LOCKED');
        throw new AppError('ACCOUNT_LOCKED');
      }
      await log('FAIL', `BAD_PASSWORD (${failure.failCount})`);
      throw new AppError('LOGIN_FAIL');
    }

    await this.repo.recordSuccess(user.userId);
    await log('SUCCESS', null);
    await this.repo.deleteExpiredRefreshTokens(user.userId);
    return this.issueTokens(user);
  }

  /** Single use: the presented token is consumed atomically; a used, revoked or expired one is E401. */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const userId = await this.repo.consumeRefreshToken(hashRefreshToken(refreshToken));
    if (userId === undefined) throw new AppError('UNAUTHORIZED', 'Refresh token is invalid, used or expired');
    const user = await this.repo.findUserById(userId);
    if (!user || user.status !== 'ACTIVE') {
      throw new AppError('UNAUTHORIZED', 'The account can no longer sign in');
    }
    return this.issueTokens(user);
  }

  async changePassword(userId: number, oldPassword: string, newPassword: string): Promise<void> {
    const violation = passwordPolicyViolation(newPassword);
    if (violation) throw invalid('newPassword', violation);
    const user = await this.repo.findUserById(userId);
    if (!user || !(await verifyPassword(oldPassword, user.passwordHash))) {
      throw new AppError('LOGIN_FAIL', 'The current password is wrong');
    }
    if (oldPassword === newPassword) throw invalid('newPassword', 'must differ from the current password');
    await this.repo.updatePassword(userId, await hashPassword(newPassword));
    await this.repo.revokeAllRefreshTokens(userId);
  }

  /** With a token: that token is revoked. Without: every refresh token of the user is. */
  async logout(userId: number, refreshToken: string | undefined): Promise<void> {
    if (refreshToken) await this.repo.revokeRefreshToken(userId, hashRefreshToken(refreshToken));
    else await this.repo.revokeAllRefreshTokens(userId);
  }

  private async issueTokens(user: LoginUser): Promise<TokenPair> {
    const sessionUser: SessionUser = {
      userId: user.userId,
      loginId: user.loginId,
      userName: user.userName,
      roleCodes: await this.repo.roleCodesOf(user.userId),
      agentId: user.agentId,
    };
    const refreshToken = newRefreshToken();
    await this.repo.insertRefreshToken(user.userId, hashRefreshToken(refreshToken), new Date(Date.now() + REFRESH_TOKEN_TTL_MS));
    return {
      accessToken: await this.signAccessToken(sessionUser, ACCESS_TOKEN_SECONDS),
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: ACCESS_TOKEN_SECONDS,
      user: sessionUser,
    };
  }
}
