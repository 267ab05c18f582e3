import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textFieldErrors, textProblem } from '../src/index.js';
import type { TestContext } from '../src/testing.js';
import type { ServiceApp } from '../src/index.js';
import { bearer, createHardeningContext, HARD_ROLE, LogSink } from './hardening-app.js';

const NUL = 'must not contain NUL characters';
const SURROGATE = 'must not contain unpaired surrogate characters';

const logSink = new LogSink();
let ctx: TestContext<ServiceApp>;
let token: string;

beforeAll(async () => {
  ctx = await createHardeningContext({ logSink });
  token = await ctx.tokenFor(HARD_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

function e411(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { success: boolean; code: string; data: { errors: Array<{ field: string; message: string }> } };
  expect(body.success).toBe(false);
  expect(body.code).toBe('E411');
  return body.data.errors;
}

describe('textProblem', () => {
  it('accepts ordinary text, including surrogate pairs (emoji) and Korean', () => {
    expect(textProblem('정산 😀 ok')).toBeUndefined();
    expect(textProblem('')).toBeUndefined();
  });

  it('names NUL characters and lone surrogates of either half', () => {
    expect(textProblem('a\u0000b')).toBe(NUL);
    expect(textProblem('\uD800')).toBe(SURROGATE);
    expect(textProblem('x\uDC00y')).toBe(SURROGATE);
    expect(textProblem('\uDE00\uD83D')).toBe(SURROGATE);
  });

  it('walks nested bodies and object keys with dotted paths', () => {
    expect(textFieldErrors({ a: [{ b: 'ok' }, { b: 'x\u0000' }], ['k\u0000']: 1 })).toEqual([
      { field: 'a.1.b', message: NUL },
      { field: 'k\\0', message: NUL },
    ]);
    expect(textFieldErrors('\uD800', 'body')).toEqual([{ field: 'body', message: SURROGATE }]);
  });

  it('does not overflow the stack on a deeply nested value', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(textFieldErrors(deep)).toHaveLength(1);
  });
});

describe('text input at the kit: E411 before any handler', () => {
  it('a NUL in a body string is E411 naming the field', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/kit/things', headers: bearer(token), payload: { name: 'a\u0000b', tags: ['ok', 'x\u0000'] } });
    expect(e411(res)).toEqual([
      { field: 'name', message: NUL },
      { field: 'tags.1', message: NUL },
    ]);
  });

  it('a lone surrogate in a JSON body (\\ud800 escape) is E411', async () => {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/kit/things/5',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"name":"ok","meta":{"note":"\\ud800"}}',
    });
    expect(e411(res)).toEqual([{ field: 'meta.note', message: SURROGATE }]);
  });

  it('a NUL in an object key of the body is E411', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/kit/things',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"name":"ok","meta":{"a\\u0000":1}}',
    });
    expect(e411(res)).toEqual([{ field: 'meta.a\\0', message: NUL }]);
  });

  it('a NUL in a query value is E411 naming the parameter', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/kit/things?q=abc%00def&pageSize=5', headers: bearer(token) });
    expect(e411(res)).toEqual([{ field: 'q', message: NUL }]);
  });

  it('a NUL in a path parameter is E411 naming the parameter, also on routes without a schema', async () => {
    expect(e411(await ctx.app.inject({ method: 'GET', url: '/api/kit/things/1%00', headers: bearer(token) }))).toEqual([{ field: 'id', message: NUL }]);
    expect(e411(await ctx.app.inject({ method: 'GET', url: '/api/kit/codes/A%00', headers: bearer(token) }))).toEqual([{ field: 'code', message: NUL }]);
  });

  it('a bare JSON string body with a NUL is E411 on "body"', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/kit/things',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '"\\u0000"',
    });
    expect(e411(res)).toEqual([{ field: 'body', message: NUL }]);
  });

  it('invalid UTF-8 escapes in the query or path never reach a handler as lone surrogates', async () => {
    const query = await ctx.app.inject({ method: 'GET', url: '/api/kit/things?q=%ED%A0%80', headers: bearer(token) });
    // The query parser keeps an undecodable escape as literal text.
    expect(query.json().data).toEqual({ q: '%ED%A0%80' });
    const outcomes = [];
    for (const url of ['/api/kit/codes/%ED%A0%80', '/api/kit/things/%ED%A0%80']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
      outcomes.push({ url, status: res.statusCode, body: res.json() });
    }
    // The router refuses an undecodable path: E400 in the envelope.
    expect(outcomes.map((o) => [o.url, o.status, o.body.code])).toEqual([
      ['/api/kit/codes/%ED%A0%80', 400, 'E400'],
      ['/api/kit/things/%ED%A0%80', 400, 'E400'],
    ]);
  });

  it('clean text passes untouched', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/kit/things?q=${encodeURIComponent('정산 😀')}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ q: '정산 😀' });
  });
});

describe('exports', () => {
  it('a NUL in an export filter is E411 JSON, not a cut-off download', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/kit/things/excel?q=%00', headers: bearer(token) });
    expect(res.headers['content-type']).toContain('application/json');
    expect(e411(res)).toEqual([{ field: 'q', message: NUL }]);
  });

  it('a query that fails on its filter before the first row is an error envelope, not a download', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/kit/things/excel?level=99999', headers: bearer(token) });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toMatchObject({ success: false, code: 'E400', message: 'A numeric value is out of range' });
    const fine = await ctx.app.inject({ method: 'GET', url: '/api/kit/things/excel?level=7', headers: bearer(token) });
    expect(fine.statusCode).toBe(200);
    expect(fine.headers['content-type']).toContain('spreadsheetml');
  });

  it('a failure after streaming started is logged and the connection destroyed (no complete-looking file)', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const outcome = await new Promise<{ status: number; bytes: number; aborted: boolean; complete: boolean }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/api/kit/things/excel?rows=20000&failAfter=5000', headers: bearer(token) },
        (res) => {
          let bytes = 0;
          let aborted = false;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('aborted', () => (aborted = true));
          res.on('error', () => (aborted = true));
          res.on('close', () => resolve({ status: res.statusCode ?? 0, bytes, aborted, complete: res.complete }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(outcome.status).toBe(200);
    expect(outcome.bytes).toBeGreaterThan(0);
    expect(outcome.aborted || !outcome.complete).toBe(true);
    expect(outcome.complete).toBe(false);
    await expect.poll(() => logSink.lines.some((l) => l.msg === 'spreadsheet export failed')).toBe(true);
  });
});
