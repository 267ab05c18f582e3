import { afterAll, beforeAll, it } from 'vitest';
import { formatFuzzReport, fuzzOpenApi } from '@csp/service-kit/testing';
import { startContext, type Ctx } from './helpers.js';
let ctx: Ctx;
beforeAll(async () => { ctx = await startContext(); });
afterAll(async () => { await ctx?.close(); });
it('debug', async () => {
  const want = (process.env.FUZZ_OPS ?? '').split(',');
  const report = await fuzzOpenApi({ app: ctx.app, token: ctx.adminToken, onResponse: (op, req, res) => {
    if (want.includes(op) || res.statusCode >= 500) console.log(op, res.statusCode, req.url.slice(0, 200), (req.payload ?? '').slice(0, 300), '=>', res.payload.slice(0, 300));
  } });
  console.log(formatFuzzReport(report));
}, 120000);
