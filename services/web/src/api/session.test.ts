import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bootScript, type BootCalls } from './boot-fetch.js';
import { authFetch } from './session.js';

const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const ACCESS = `${part({ alg: 'HS256' })}.${part({ uid: 1, roleCodes: ['ADMIN'], exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;

type Global = typeof globalThis & { __cspBoot?: BootCalls; localStorage: Storage };
const g = globalThis as Global;
const realFetch = globalThis.fetch;
let network: string[] = [];

/** What the network answers: the address asked for, marked as such. */
function answering(url: string, from: string) {
  return new Response(JSON.stringify({ from, url }), { status: 200, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  const store = new Map<string, string>([['csp.session', JSON.stringify({ accessToken: ACCESS, refreshToken: 'r' })]]);
  g.localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
    key: () => null,
    clear: () => store.clear(),
    get length() {
      return store.size;
    },
  } as Storage;
  network = [];
  // index.html's script, run on the page's address, its calls answered by "boot"
  const w = {
    localStorage: g.localStorage,
    location: { pathname: '/settle', search: '?settleMonth=202507', origin: 'http://127.0.0.1:8080' },
    atob,
    fetch: async (url: string) => answering(url, 'boot'),
  } as { __cspBoot?: BootCalls };
  new Function('window', bootScript())(w);
  g.__cspBoot = w.__cspBoot;
  globalThis.fetch = (async (input: Request) => {
    network.push(`${input.method} ${new URL(input.url).pathname}${new URL(input.url).search}`);
    return answering(input.url, 'app');
  }) as typeof fetch;
});

afterEach(() => {
  globalThis.fetch = realFetch;
  delete g.__cspBoot;
});

describe('authFetch and the calls index.html started', () => {
  it("answers the page's first GET of a started address from that call, and the second from the network", async () => {
    const first = await authFetch(new Request('http://127.0.0.1:8080/api/settle?pageSize=20&settleMonth=202507'));
    expect(await first.json()).toEqual({ from: 'boot', url: '/api/settle?pageSize=20&settleMonth=202507' });
    expect(network).toEqual([]);
    const again = await authFetch(new Request('http://127.0.0.1:8080/api/settle?pageSize=20&settleMonth=202507'));
    expect(((await again.json()) as { from: string }).from).toBe('app');
    expect(network).toEqual(['GET /api/settle?pageSize=20&settleMonth=202507']);
  });

  it('drops every started answer at the first change (a write may make them stale)', async () => {
    await authFetch(new Request('http://127.0.0.1:8080/api/settle/1/hold', { method: 'POST', body: '{}' }));
    const summary = await authFetch(new Request('http://127.0.0.1:8080/api/settle/summary?settleMonth=202507'));
    expect(((await summary.json()) as { from: string }).from).toBe('app');
    expect(network).toEqual(['POST /api/settle/1/hold', 'GET /api/settle/summary?settleMonth=202507']);
  });
});
