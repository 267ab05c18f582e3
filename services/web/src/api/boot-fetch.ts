import { COMMON_KEYS } from '../resources/list-keys.js';
import { SETTLE_LIST_KEYS } from '../workflows/settle-list-keys.js';

/**
 * The calls a first load needs, started by index.html before any of the app's code has loaded (issue 24).
 * A cold load used to be a waterfall: ~1 MB of JavaScript to fetch and run, then the shell's calls (me,
 * menu, metadata), then the page's code, then the page's own calls. `bootFetch` runs as an inline script
 * (vite.config.ts inlines its source) and starts, with the stored session's token, the calls the first
 * render waits for and the data of the page in the address bar; `authFetch` (session.ts) hands each answer to the first GET of
 * the same address, once, within BOOT_TTL_MS. Only pages whose calls follow from the address alone are
 * started here; a page that asks otherwise simply makes its own call.
 */

/** The started calls, on `window`: answers by address (see `key`), for the token they were asked with. */
export interface BootCalls {
  token: string;
  /** Date.now() after which nothing is handed out any more. */
  until: number;
  answers: Record<string, Promise<Response> | undefined>;
  /** Every address started (as `key` gives it), taken or not. */
  started: string[];
  /** The address as a key: path and its query parameters in name order (decoded), whatever order they came in. */
  key(url: string): string;
}

/** Long enough for the page's first calls on a slow start; short enough that no later call gets an old answer. */
export const BOOT_TTL_MS = 15_000;

interface BootWindow {
  localStorage: Pick<Storage, 'getItem'>;
  location: { pathname: string; search: string; origin: string };
  fetch(url: string, init: { headers: Record<string, string> }): Promise<Response>;
  atob(data: string): string;
  __cspBoot?: BootCalls;
}

/**
 * Inlined into index.html as `(source)(window)`: it must not refer to anything outside its own body
 * (no imports, no module constants), and it must never throw (the app starts the same without it).
 */
export function bootFetch(w: BootWindow, ttlMs: number, now: number, settleKeys: readonly string[]): void {
  try {
    const raw = w.localStorage.getItem('csp.session');
    const token = raw ? (JSON.parse(raw) as { accessToken?: string }).accessToken : undefined;
    if (!token) return;
    const claims = JSON.parse(w.atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as {
      exp?: number;
      roleCodes?: string[];
    };
    // An expired token would only collect refusals: the app refreshes it first.
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= now + 5_000) return;
    const roles = claims.roleCodes ?? [];
    const agentOnly = roles.length > 0 && roles.every((r) => r === 'AGENT');

    const key = (url: string): string => {
      const u = new URL(url, 'http://x');
      const pairs: [string, string][] = [];
      u.searchParams.forEach((v, k) => pairs.push([k, v]));
      pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      return u.pathname + (pairs.length ? `?${pairs.map((p) => `${p[0]}=${p[1]}`).join('&')}` : '');
    };
    const boot: BootCalls = { token, until: now + ttlMs, answers: {}, started: [], key };
    w.__cspBoot = boot;
    const start = (url: string): Promise<Response> => {
      const answer = w.fetch(url, { headers: { authorization: `Bearer ${token}` } });
      // a failed call is the app's to make again: never an unhandled rejection here
      answer.catch(() => undefined);
      boot.answers[key(url)] = answer;
      boot.started.push(key(url));
      return answer;
    };
    const query = (values: Record<string, string | undefined>): string => {
      const parts: string[] = [];
      for (const name of Object.keys(values)) {
        const value = values[name];
        if (value !== undefined && value !== '') parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
      }
      return parts.length ? `?${parts.join('&')}` : '';
    };

    const path = w.location.pathname.replace(/\/+$/, '') || '/';
    // What the first render waits for (main.tsx): the user and the menu.
    void start('/api/auth/me');
    void start('/api/menus/my');
    // The metadata (a large answer) is wanted first by the generic pages only; the pages below do without it.
    const ownData = !agentOnly && (path === '/settle' || path === '/');
    if (!ownData) void start('/api/meta/resources');
    if (agentOnly) return;

    const params = new URLSearchParams(w.location.search);
    const from = (names: string[]): Record<string, string | undefined> => {
      const out: Record<string, string | undefined> = {};
      for (const name of names) out[name] = params.get(name) ?? undefined;
      return out;
    };

    if (path === '/settle') {
      // workflows/settle-list-page.tsx: the list (url-state.ts keys, 20 rows unless the address says) and the month's summary
      const list = from([...settleKeys]);
      list.pageSize = list.pageSize || '20';
      void start(`/api/settle${query(list)}`);
      if (list.settleMonth) void start(`/api/settle/summary${query({ settleMonth: list.settleMonth })}`);
    } else if (path === '/') {
      // pages/home-page.tsx and month-close-card.tsx: the notices, the latest run, then where its month stands
      void start('/api/notices?pageSize=5&isActive=true');
      void start('/api/batch/settlement/runs?pageSize=1')
        .then((res) => (res.ok ? res.clone().json() : undefined))
        .then((body: { data?: { list?: { settleMonth?: string }[] } } | undefined) => {
          const month = body?.data?.list?.[0]?.settleMonth;
          if (!month || now + ttlMs <= Date.now()) return;
          void start(`/api/receive/status${query({ settleMonth: month })}`);
          void start(`/api/batch/settlement/runs${query({ settleMonth: month, pageSize: '1' })}`);
          void start(`/api/settle/summary${query({ settleMonth: month })}`);
        })
        .catch(() => undefined);
    }
  } catch {
    // no session, no storage, an unreadable token: the app makes its calls itself
  }
}

/** The inline script of index.html: the function's own source, called at once. */
export function bootScript(): string {
  // the settlement list's URL keys from where the list itself takes them (the script cannot import)
  return `(${bootFetch.toString()})(window,${BOOT_TTL_MS},Date.now(),${JSON.stringify([...COMMON_KEYS, ...SETTLE_LIST_KEYS])})`;
}

/**
 * The answer started at boot for this GET, taken once (a Response is read once), when it was asked with
 * the same token and is still fresh; else undefined and the caller fetches.
 */
export function takeBootAnswer(url: string, token: string | undefined, w: { __cspBoot?: BootCalls } = globalThis as never): Promise<Response> | undefined {
  const boot = w.__cspBoot;
  if (!boot) return undefined;
  if (Date.now() > boot.until || boot.token !== token) {
    delete w.__cspBoot;
    return undefined;
  }
  const key = boot.key(url);
  const answer = boot.answers[key];
  delete boot.answers[key];
  return answer;
}

/** A change (any call other than GET) or a sign-out: answers fetched before it may be out of date. */
export function dropBootAnswers(w: { __cspBoot?: BootCalls } = globalThis as never): void {
  delete w.__cspBoot;
}
