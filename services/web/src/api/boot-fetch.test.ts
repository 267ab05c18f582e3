import { afterEach, describe, expect, it } from 'vitest';
import { BOOT_TTL_MS, bootScript, takeBootAnswer, type BootCalls } from './boot-fetch.js';

/** An access token as auth-platform signs it (the signature is never checked by the client). */
function token(claims: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`;
}

/** The clock the script reads (Date.now()), in whole seconds as token claims are. */
const NOW = Math.floor(Date.now() / 1000) * 1000;
const ADMIN = token({ uid: 1, loginId: 'admin', roleCodes: ['SUPER_ADMIN'], exp: NOW / 1000 + 3600 });

interface FakeWindow {
  localStorage: { getItem(key: string): string | null };
  location: { pathname: string; search: string; origin: string };
  fetch(url: string, init: { headers: Record<string, string> }): Promise<Response>;
  atob(data: string): string;
  __cspBoot?: BootCalls;
  asked: { url: string; authorization: string }[];
}

/** index.html's inline script as the browser runs it: its text, evaluated with this window. */
function runBoot(address: string, session: string | null, answer: (url: string) => unknown = () => ({ success: true, data: null })): FakeWindow {
  const url = new URL(address, 'http://127.0.0.1:8080');
  const w: FakeWindow = {
    localStorage: { getItem: (key) => (key === 'csp.session' ? session : null) },
    location: { pathname: url.pathname, search: url.search, origin: url.origin },
    atob: (data) => atob(data),
    asked: [],
    fetch(requested, init) {
      w.asked.push({ url: requested, authorization: init.headers.authorization! });
      return Promise.resolve(new Response(JSON.stringify(answer(requested)), { status: 200 }));
    },
  };
  new Function('window', bootScript())(w);
  return w;
}

const session = (accessToken: string) => JSON.stringify({ accessToken, refreshToken: 'r' });

describe('calls started by index.html before the app loads', () => {
  it('starts the user, the menu, the settlement list (20 rows) and its month summary on the settlement list', () => {
    const w = runBoot('/settle?settleMonth=202507', session(ADMIN));
    expect(w.asked.map((a) => a.url)).toEqual([
      '/api/auth/me',
      '/api/menus/my',
      '/api/settle?pageSize=20&settleMonth=202507',
      '/api/settle/summary?settleMonth=202507',
    ]);
    expect(new Set(w.asked.map((a) => a.authorization))).toEqual(new Set([`Bearer ${ADMIN}`]));
    // kept by address with the parameters in name order, for the app's GET of the same address
    expect(w.__cspBoot!.started).toEqual(['/api/auth/me', '/api/menus/my', '/api/settle?pageSize=20&settleMonth=202507', '/api/settle/summary?settleMonth=202507']);
    expect(Object.keys(w.__cspBoot!.answers)).toEqual(w.__cspBoot!.started);
  });

  it("keeps the list's filters, page and size of the address, in the page's parameter names", () => {
    const w = runBoot('/settle/?settleMonth=202507&status=HOLD&pageNum=3&pageSize=50&unknown=x&agentId=', session(ADMIN));
    expect(w.asked.map((a) => a.url)).toEqual([
      '/api/auth/me',
      '/api/menus/my',
      '/api/settle?pageNum=3&pageSize=50&status=HOLD&settleMonth=202507',
      '/api/settle/summary?settleMonth=202507',
    ]);
  });

  it("starts the cockpit's notices and latest run, then the latest run's month once that answer is in", async () => {
    const w = runBoot('/', session(ADMIN), (url) =>
      url === '/api/batch/settlement/runs?pageSize=1' ? { success: true, data: { list: [{ jobLogId: 7, settleMonth: '202507' }] } } : { success: true, data: null },
    );
    expect(w.asked.map((a) => a.url)).toEqual(['/api/auth/me', '/api/menus/my', '/api/notices?pageSize=5&isActive=true', '/api/batch/settlement/runs?pageSize=1']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(w.asked.slice(4).map((a) => a.url)).toEqual([
      '/api/receive/status?settleMonth=202507',
      '/api/batch/settlement/runs?settleMonth=202507&pageSize=1',
      '/api/settle/summary?settleMonth=202507',
    ]);
  });

  it('starts the metadata for the generic pages, and nothing of the page itself', () => {
    const w = runBoot('/org/agents?pageSize=50', session(ADMIN));
    expect(w.asked.map((a) => a.url)).toEqual(['/api/auth/me', '/api/menus/my', '/api/meta/resources']);
  });

  it("starts no operator page's data for an agent (the portal), whatever the address", () => {
    const agent = token({ uid: 9, roleCodes: ['AGENT'], exp: NOW / 1000 + 3600 });
    const w = runBoot('/settle?settleMonth=202507', session(agent));
    expect(w.asked.map((a) => a.url)).toEqual(['/api/auth/me', '/api/menus/my', '/api/meta/resources']);
  });

  it('starts nothing without a session, or with an access token about to expire (the app refreshes it first)', () => {
    expect(runBoot('/settle?settleMonth=202507', null).asked).toEqual([]);
    expect(runBoot('/settle?settleMonth=202507', 'not json').asked).toEqual([]);
    const expiring = token({ uid: 1, roleCodes: ['SUPER_ADMIN'], exp: NOW / 1000 + 4 });
    const w = runBoot('/settle?settleMonth=202507', session(expiring));
    expect(w.asked).toEqual([]);
    expect(w.__cspBoot).toBeUndefined();
  });
});

describe('handing the started calls to the app', () => {
  afterEach(() => {
    delete (globalThis as { __cspBoot?: BootCalls }).__cspBoot;
  });

  it("gives each answer once, to the same address whatever the parameters' order, for the same token", async () => {
    const w = runBoot('/settle?settleMonth=202507', session(ADMIN), (url) => ({ url }));
    const answer = takeBootAnswer('http://127.0.0.1:8080/api/settle?settleMonth=202507&pageSize=20', ADMIN, w);
    expect(await (await answer!).json()).toEqual({ url: '/api/settle?pageSize=20&settleMonth=202507' });
    expect(takeBootAnswer('http://127.0.0.1:8080/api/settle?settleMonth=202507&pageSize=20', ADMIN, w)).toBeUndefined();
    // another page size is another call
    expect(takeBootAnswer('http://127.0.0.1:8080/api/settle?settleMonth=202507&pageSize=50', ADMIN, w)).toBeUndefined();
    expect(takeBootAnswer('http://127.0.0.1:8080/api/auth/me', ADMIN, w)).toBeDefined();
  });

  it('gives nothing to another token (signed in again) and nothing after BOOT_TTL_MS: all answers are dropped then', () => {
    const w = runBoot('/settle?settleMonth=202507', session(ADMIN));
    expect(takeBootAnswer('http://127.0.0.1:8080/api/auth/me', 'another', w)).toBeUndefined();
    expect(w.__cspBoot).toBeUndefined();
    expect(takeBootAnswer('http://127.0.0.1:8080/api/menus/my', ADMIN, w)).toBeUndefined();

    const later = runBoot('/settle?settleMonth=202507', session(ADMIN));
    later.__cspBoot!.until = Date.now() - 1;
    expect(takeBootAnswer('http://127.0.0.1:8080/api/auth/me', ADMIN, later)).toBeUndefined();
    expect(later.__cspBoot).toBeUndefined();
    expect(BOOT_TTL_MS).toBe(15_000);
  });
});
