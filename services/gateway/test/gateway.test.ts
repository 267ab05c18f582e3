import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readJson, startGateway, type RunningGateway } from './helpers/gateway.js';
import { closedPortUrl, startStubUpstream, type StubUpstream } from './helpers/stub-upstream.js';

const BEARER = { authorization: 'Bearer test-token' };
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let auth: StubUpstream;
let master: StubUpstream;
let payment: StubUpstream;
let downUrl: string;
let gateway: RunningGateway;

beforeAll(async () => {
  auth = await startStubUpstream('auth-platform', ['/api/auth/login', '/api/menus/my']);
  master = await startStubUpstream('master-data', ['/api/orgs/tree']);
  payment = await startStubUpstream('payment-tax', ['/api/common/account-codes']);
  downUrl = await closedPortUrl();
  gateway = await startGateway({
    AUTH_PLATFORM_URL: auth.url,
    MASTER_DATA_URL: master.url,
    PAYMENT_TAX_URL: payment.url,
    INTAKE_URL: downUrl,
    LEDGER_SETTLEMENT_URL: downUrl,
    ANALYTICS_URL: downUrl,
    UPSTREAM_RESPONSE_TIMEOUT_MS: '400',
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([auth, master, payment].map((s) => s?.close()));
});

beforeEach(() => {
  for (const stub of [auth, master, payment]) stub.seen.length = 0;
});

describe('routing', () => {
  it('forwards a GET with its query string to the owning service, path unchanged', async () => {
    const res = await fetch(`${gateway.url}/api/orgs/tree?orgType=BR&pageNum=2`, { headers: BEARER });
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body).toEqual({
      success: true,
      code: '0000',
      message: 'Success',
      data: { service: 'master-data', url: '/api/orgs/tree?orgType=BR&pageNum=2' },
    });
    expect(master.seen).toHaveLength(1);
    expect(master.seen[0]!.headers.authorization).toBe('Bearer test-token');
  });

  it('forwards a POST JSON body unchanged', async () => {
    const res = await fetch(`${gateway.url}/api/users`, {
      method: 'POST',
      headers: { ...BEARER, 'content-type': 'application/json' },
      body: JSON.stringify({ loginId: 'kim', amount: '1234.50' }),
    });
    expect(res.status).toBe(200);
    expect((await readJson(res)).data).toEqual({ service: 'auth-platform', url: '/api/users', body: { loginId: 'kim', amount: '1234.50' } });
  });

  it('streams a binary body through untouched', async () => {
    const bytes = Buffer.alloc(256 * 1024, 7);
    const res = await fetch(`${gateway.url}/api/files/upload`, {
      method: 'POST',
      headers: { ...BEARER, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(res.status).toBe(200);
    expect((await readJson(res)).data.body).toEqual({ bytes: 256 * 1024 });
  });

  it('streams a large chunked download through whole (export path)', async () => {
    const res = await fetch(`${gateway.url}/api/files/9?streamBytes=1000000`, { headers: BEARER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(1_000_000);
    expect(body[0]).toBe(65);
    expect(body[16384]).toBe(66);
  });

  it('passes a response larger than the buffering limit through with its content-length', async () => {
    const res = await fetch(`${gateway.url}/api/files/10?bytes=300000`, { headers: BEARER });
    expect(res.headers.get('content-length')).toBe('300000');
    expect(Buffer.from(await res.arrayBuffer()).length).toBe(300_000);
  });

  it('answers HEAD with the service headers and no body', async () => {
    const res = await fetch(`${gateway.url}/api/files/11?bytes=1234`, { method: 'HEAD', headers: BEARER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1234');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('passes a 204 without a body', async () => {
    const res = await fetch(`${gateway.url}/api/notices/3?status=204`, { method: 'DELETE', headers: BEARER });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('drops hop-by-hop headers, including those the Connection header names', async () => {
    // fetch() refuses to set Connection, so use node:http.
    await new Promise<void>((resolve, reject) => {
      const req = request(`${gateway.url}/api/menus/my`, {
        headers: { ...BEARER, connection: 'keep-alive, x-hop', 'x-hop': 'secret', 'x-kept': 'yes' },
      });
      req.on('response', (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      req.end();
    });
    expect(auth.seen[0]!.headers['x-hop']).toBeUndefined();
    expect(auth.seen[0]!.headers['x-kept']).toBe('yes');
  });

  it('sends common/account-codes to payment-tax and the rest of common to auth-platform (longest prefix wins)', async () => {
    const specific = await fetch(`${gateway.url}/api/common/account-codes/41`, { headers: BEARER });
    const general = await fetch(`${gateway.url}/api/common/codes/AGENT_STATUS`, { headers: BEARER });
    expect((await readJson(specific)).data.service).toBe('payment-tax');
    expect((await readJson(general)).data.service).toBe('auth-platform');
    expect(payment.seen.map((r) => r.url)).toEqual(['/api/common/account-codes/41']);
    expect(auth.seen.map((r) => r.url)).toEqual(['/api/common/codes/AGENT_STATUS']);
  });

  it('routes the bare prefix itself', async () => {
    const res = await fetch(`${gateway.url}/api/agents`, { headers: BEARER });
    expect((await readJson(res)).data).toEqual({ service: 'master-data', url: '/api/agents' });
  });

  it('does not treat a longer word as the prefix (/api/authx is not /api/auth)', async () => {
    const res = await fetch(`${gateway.url}/api/authx/login`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(auth.seen).toHaveLength(0);
  });

  it('passes a service error response through as the service sent it', async () => {
    const res = await fetch(`${gateway.url}/api/auth/forbidden`);
    expect(res.status).toBe(403);
    expect(await readJson(res)).toMatchObject({ success: false, code: 'E403', message: 'Access denied' });
  });

  it('answers an unknown /api path with an enveloped E404', async () => {
    const res = await fetch(`${gateway.url}/api/no-such-resource/1`, { headers: BEARER });
    expect(res.status).toBe(404);
    const body = await readJson(res);
    expect(body).toEqual({
      success: false,
      code: 'E404',
      message: 'No service answers GET /api/no-such-resource/1',
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
    });
  });
});

describe('request id', () => {
  it('carries the caller x-request-id to the service and back', async () => {
    const res = await fetch(`${gateway.url}/api/menus/my`, { headers: { ...BEARER, 'x-request-id': 'req-abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('req-abc-123');
    expect(auth.seen[0]!.headers['x-request-id']).toBe('req-abc-123');
  });

  it('generates a uuid when the caller sends none and gives the service the same one', async () => {
    const res = await fetch(`${gateway.url}/api/menus/my`, { headers: BEARER });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect(auth.seen[0]!.headers['x-request-id']).toBe(id);
  });

  it('replaces a malformed incoming request id', async () => {
    const res = await fetch(`${gateway.url}/api/menus/my`, { headers: { ...BEARER, 'x-request-id': 'bad id with spaces' } });
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('tells the service who the client is (x-forwarded-for)', async () => {
    await fetch(`${gateway.url}/api/menus/my`, { headers: BEARER });
    expect(auth.seen[0]!.headers['x-forwarded-for']).toBe('127.0.0.1');
  });
});

describe('token pre-check', () => {
  it('rejects a protected path without a Bearer token with E401 and never calls the service', async () => {
    const res = await fetch(`${gateway.url}/api/orgs/tree`);
    expect(res.status).toBe(401);
    expect(await readJson(res)).toEqual({
      success: false,
      code: 'E401',
      message: 'Authentication is required',
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(master.seen).toHaveLength(0);
  });

  it('lets /api/auth/** through without a token (public path)', async () => {
    const res = await fetch(`${gateway.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: 'r' }),
    });
    expect(res.status).toBe(200);
    expect(auth.seen.map((r) => r.url)).toEqual(['/api/auth/refresh']);
  });
});

describe('unavailable services', () => {
  it('answers 503 with an E500 envelope naming the service, quickly, when the service is down', async () => {
    const started = Date.now();
    const res = await fetch(`${gateway.url}/api/receive/data`, { headers: BEARER });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(503);
    expect(await readJson(res)).toEqual({
      success: false,
      code: 'E500',
      message: 'intake is unavailable',
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
    });
  });

  it('answers 503 for a POST to a down service too', async () => {
    const res = await fetch(`${gateway.url}/api/batch/settlement/run`, {
      method: 'POST',
      headers: { ...BEARER, 'content-type': 'application/json' },
      body: '{"settleMonth":"202501"}',
    });
    expect(res.status).toBe(503);
    expect((await readJson(res)).message).toBe('ledger-settlement is unavailable');
  });

  it('answers 504 with an E500 envelope when the service does not respond in time', async () => {
    const res = await fetch(`${gateway.url}/api/menus/my?delayMs=1500`, { headers: BEARER });
    expect(res.status).toBe(504);
    expect(await readJson(res)).toEqual({
      success: false,
      code: 'E500',
      message: 'auth-platform did not respond in time',
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
    });
  });
});

describe('health', () => {
  it('succeeds while some services are down and reports each one', async () => {
    const res = await fetch(`${gateway.url}/api/health`);
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body.success).toBe(true);
    expect(body.code).toBe('0000');
    expect(body.data.status).toBe('DEGRADED');
    const statuses = Object.fromEntries(body.data.services.map((s: { name: string; status: string }) => [s.name, s.status]));
    expect(statuses).toEqual({
      'auth-platform': 'UP',
      'master-data': 'UP',
      intake: 'DOWN',
      'ledger-settlement': 'DOWN',
      'payment-tax': 'UP',
      analytics: 'DOWN',
    });
  });
});

describe('API documentation', () => {
  it('/v3/api-docs merges the paths, schemas and tags of every live service', async () => {
    const res = await fetch(`${gateway.url}/v3/api-docs`);
    expect(res.status).toBe(200);
    const doc = await readJson(res);
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toEqual(['/api/auth/login', '/api/common/account-codes', '/api/menus/my', '/api/orgs/tree']);
    expect(Object.keys(doc.components.schemas).sort()).toEqual([
      'ApiResponse',
      'auth-platformOnly',
      'master-dataOnly',
      'payment-taxOnly',
    ]);
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(['auth-platform', 'master-data', 'payment-tax']);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc['x-services']).toEqual({
      available: ['auth-platform', 'master-data', 'payment-tax'],
      unavailable: ['intake', 'ledger-settlement', 'analytics'],
    });
  });

  it('/swagger-ui renders the Swagger UI page', async () => {
    const res = await fetch(`${gateway.url}/swagger-ui`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<div id="swagger-ui"></div>');
  });

  it('/swagger-ui/json serves the merged document the page loads', async () => {
    const res = await fetch(`${gateway.url}/swagger-ui/json`);
    expect(res.status).toBe(200);
    const doc = await readJson(res);
    expect(Object.keys(doc.paths)).toContain('/api/orgs/tree');
    expect(Object.keys(doc.paths)).toContain('/api/menus/my');
  });
});

describe('CORS in development', () => {
  it('answers a preflight from any origin', async () => {
    const res = await fetch(`${gateway.url}/api/orgs/tree`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(master.seen).toHaveLength(0);
  });
});
