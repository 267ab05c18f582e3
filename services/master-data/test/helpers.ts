import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import type { ServiceApp } from '@csp/service-kit';
import { buildApp } from '../src/app.js';

export type Ctx = TestContext<ServiceApp>;

export function startContext(): Promise<Ctx> {
  return createTestContext({ buildApp, serviceName: 'master-data' });
}

export interface Api {
  get(url: string, token?: string): Promise<{ status: number; body: any; raw: Buffer; headers: Record<string, unknown> }>;
  post(url: string, payload: unknown, token?: string): Promise<{ status: number; body: any }>;
  put(url: string, payload?: unknown, token?: string): Promise<{ status: number; body: any }>;
  del(url: string, token?: string): Promise<{ status: number; body: any }>;
}

function parse(res: { payload: string; headers: Record<string, unknown> }) {
  const type = String(res.headers['content-type'] ?? '');
  return type.includes('application/json') ? JSON.parse(res.payload) : undefined;
}

/** app.inject with the admin token by default. */
export function api(ctx: Ctx): Api {
  const auth = (token?: string) => ({ authorization: `Bearer ${token ?? ctx.adminToken}` });
  return {
    get: async (url, token) => {
      const res = await ctx.app.inject({ method: 'GET', url, headers: auth(token) });
      return { status: res.statusCode, body: parse(res), raw: res.rawPayload, headers: res.headers };
    },
    post: async (url, payload, token) => {
      const res = await ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: auth(token) });
      return { status: res.statusCode, body: parse(res) };
    },
    put: async (url, payload, token) => {
      const res = await ctx.app.inject({
        method: 'PUT',
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
        headers: auth(token),
      });
      return { status: res.statusCode, body: parse(res) };
    },
    del: async (url, token) => {
      const res = await ctx.app.inject({ method: 'DELETE', url, headers: auth(token) });
      return { status: res.statusCode, body: parse(res) };
    },
  };
}

/** Reads an xlsx download back: header row and data rows as arrays of cell values. */
export async function readSheet(raw: Buffer): Promise<{ header: unknown[]; rows: unknown[][] }> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(raw), {
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    worksheets: 'emit',
  });
  const all: unknown[][] = [];
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const values = row.values as unknown[];
      all.push(values.slice(1));
    }
    break;
  }
  return { header: all[0] ?? [], rows: all.slice(1) };
}

/** An HQ > BR > TM chain plus ids of the seeded grades FC (1) and TM_LEADER (3). */
export async function seedOrgs(a: Api) {
  const hq = await a.post('/api/orgs', { orgName: 'Test HQ', orgType: 'HQ', region: 'Seoul' });
  const br = await a.post('/api/orgs', { orgName: 'Test Branch', orgType: 'BR', parentOrgId: hq.body.data.id, region: 'Seoul' });
  const tm = await a.post('/api/orgs', { orgName: 'Test Team', orgType: 'TM', parentOrgId: br.body.data.id, region: 'Seoul' });
  return { hqId: hq.body.data.id as number, brId: br.body.data.id as number, tmId: tm.body.data.id as number };
}

export async function createAgent(a: Api, body: Record<string, unknown>): Promise<number> {
  const res = await a.post('/api/agents', { taxType: 'BUSINESS_INCOME', vatType: 'NONE', ...body });
  if (res.status !== 200) throw new Error(`agent create failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function createCompanyAndProduct(a: Api, code = 'L001') {
  const company = await a.post('/api/companies', { companyCode: code, companyName: `Company ${code}`, companyType: 'LIFE' });
  if (company.status !== 200) throw new Error(`company create failed: ${JSON.stringify(company.body)}`);
  const product = await a.post('/api/products', {
    companyId: company.body.data.id,
    productCode: `${code}-P1`,
    productName: `Whole life ${code}`,
    insuranceType: 'LIFE',
    productGroup: 'LIFE',
  });
  if (product.status !== 200) throw new Error(`product create failed: ${JSON.stringify(product.body)}`);
  return { companyId: company.body.data.id as number, productId: product.body.data.id as number };
}

export async function createContract(a: Api, body: Record<string, unknown>): Promise<number> {
  const res = await a.post('/api/contracts', body);
  if (res.status !== 200) throw new Error(`contract create failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}
