import { dropBootAnswers, takeBootAnswer } from './boot-fetch.js';

/**
 * Tokens of the signed-in user (localStorage, so a reload keeps the session) and the fetch every API
 * call goes through: it adds the bearer token and, when the access token has expired (A001), trades
 * the refresh token for a new pair once (concurrent calls share that one refresh) and retries.
 */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

const KEY = 'csp.session';
type Listener = (tokens: Tokens | null) => void;
const listeners = new Set<Listener>();

export function readTokens(): Tokens | null {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<Tokens>) : null;
    return parsed?.accessToken && parsed.refreshToken ? { accessToken: parsed.accessToken, refreshToken: parsed.refreshToken } : null;
  } catch {
    return null;
  }
}

export function writeTokens(tokens: Tokens | null): void {
  dropBootAnswers();
  if (tokens) localStorage.setItem(KEY, JSON.stringify(tokens));
  else {
    localStorage.removeItem(KEY);
    // Signed out: the start-up answers kept for this user go too (api/warm-cache.ts).
    for (const key of Object.keys(localStorage)) if (key.startsWith('csp.warm.')) localStorage.removeItem(key);
  }
  for (const listener of listeners) listener(tokens);
}

export function onTokensChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let refreshing: Promise<Tokens | null> | null = null;

async function refreshTokens(current: Tokens): Promise<Tokens | null> {
  const res = await fetch('/api/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: current.refreshToken }),
  }).catch(() => null);
  const body = res?.ok ? ((await res.json()) as { success?: boolean; data?: Tokens }) : null;
  const next = body?.success && body.data ? { accessToken: body.data.accessToken, refreshToken: body.data.refreshToken } : null;
  writeTokens(next);
  return next;
}

/** One refresh at a time: refresh tokens are single-use, a second exchange would fail. */
export function refreshOnce(): Promise<Tokens | null> {
  const current = readTokens();
  if (!current) return Promise.resolve(null);
  refreshing ??= refreshTokens(current).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function isExpired(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body = (await response.clone().json().catch(() => null)) as { code?: string } | null;
  return body?.code === 'A001';
}

function withToken(request: Request, tokens: Tokens | null): Request {
  const next = new Request(request);
  if (tokens) next.headers.set('authorization', `Bearer ${tokens.accessToken}`);
  return next;
}

export async function authFetch(input: Request): Promise<Response> {
  const retry = input.clone();
  const tokens = readTokens();
  // The first load's calls were started by index.html already (boot-fetch.ts); a change makes them stale.
  if (input.method !== 'GET') dropBootAnswers();
  const early = input.method === 'GET' ? await takeBootAnswer(input.url, tokens?.accessToken)?.catch(() => undefined) : undefined;
  const response = early ?? (await fetch(withToken(input, tokens)));
  if (!tokens || !(await isExpired(response))) return response;
  const fresh = await refreshOnce();
  if (!fresh) return response;
  return fetch(withToken(retry, fresh));
}
