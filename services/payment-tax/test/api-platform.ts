import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { buildGatewayApp } from '@csp/gateway/app';
import type { ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { buildApp } from '../src/app.js';

export interface Res {
  status: number;
  body: any;
  raw: Buffer;
  headers: Headers;
}

export interface Platform {
  ctx: TestContext<ServiceApp>;
  gatewayUrl: string;
  filesDir: string;
  token: string;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, token?: string): Promise<Res>;
  close(): Promise<void>;
}

/**
 * payment-tax on a fresh database behind the real gateway (every other upstream unreachable), files in a
 * temporary folder; calls go through the gateway with the admin token unless another is given.
 */
export async function startPlatform(): Promise<Platform> {
  const filesDir = await mkdtemp(join(tmpdir(), 'payment-tax-files-'));
  const ctx = await createTestContext({ buildApp, serviceName: 'payment-tax', env: { FILE_STORAGE_DIR: filesDir } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const serviceUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const unused = 'http://127.0.0.1:9';
  const config: Parameters<typeof buildGatewayApp>[0] = {
    nodeEnv: 'test',
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    trustProxy: false,
    upstreams: {
      'auth-platform': unused,
      'master-data': unused,
      intake: unused,
      'ledger-settlement': unused,
      'payment-tax': serviceUrl,
      analytics: unused,
    },
    loginRateLimit: { max: 100, windowMs: 60_000 },
    connectTimeoutMs: 3_000,
    responseTimeoutMs: 60_000,
    connectionsPerUpstream: 16,
    healthTimeoutMs: 1_500,
    openApiCacheMs: 30_000,
    redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    batchPrefix: `pt-e2e-${randomBytes(4).toString('hex')}`,
  };
  const gateway: FastifyInstance = await buildGatewayApp(config);
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  const token = ctx.adminToken;
  return {
    ctx,
    gatewayUrl,
    filesDir,
    token,
    async call(method, path, body, auth = token) {
      const res = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${auth}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const raw = Buffer.from(await res.arrayBuffer());
      const text = raw.toString('utf8');
      let parsed: unknown = text;
      if ((res.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
      return { status: res.status, body: parsed, raw, headers: res.headers };
    },
    async close() {
      await gateway.close().catch(() => undefined);
      await ctx.close();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
}

/** The cells of the first sheet: rows of [A, B, C, ...] values as ExcelJS reads them (numbers stay numbers). */
export async function readSheet(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const values = (row.values as unknown[]).slice(1);
    rows.push(values);
  });
  return rows;
}
