import { readTokens } from './session.js';

/**
 * The last answers of a few start-up calls (the user's menu, the resource metadata), kept in
 * localStorage per user so that a reload draws the page at once and revalidates behind it
 * (stale-while-revalidate). Never used for business data.
 */
const PREFIX = 'csp.warm.';

/** Who the cached answers belong to: the signed-in user of the access token (not verified: a cache key only). */
function owner(): string | null {
  const token = readTokens()?.accessToken;
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { userId?: unknown; loginId?: unknown; sub?: unknown };
    return String(claims.userId ?? claims.sub ?? claims.loginId ?? '') || null;
  } catch {
    return null;
  }
}

export function readWarm<T>(key: string): T | undefined {
  const who = owner();
  if (!who) return undefined;
  try {
    const stored = JSON.parse(localStorage.getItem(PREFIX + key) ?? 'null') as { owner: string; data: T } | null;
    return stored?.owner === who ? stored.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeWarm(key: string, data: unknown): void {
  const who = owner();
  if (!who) return;
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ owner: who, data }));
  } catch {
    // full or unavailable storage: the next start simply waits for the network
  }
}

