import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueues, type BatchQueues } from '@csp/batch';
import { assertAllRoutesGuarded, createServiceApp, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { registerAreas } from '../src/areas.js';
import { REDIS_URL, removeRedisPrefix } from './api-helpers.js';

const seen: Array<{ route: string; access: string }> = [];
let ctx: TestContext<ServiceApp>;
let queues: BatchQueues;
const prefix = `csp-ls-routes-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  queues = createQueues(REDIS_URL, { prefix });
  ctx = await createTestContext({
    serviceName: 'ledger-settlement',
    buildApp: async (deps) => {
      const app = await createServiceApp({ name: 'ledger-settlement', ...deps });
      app.addHook('onRoute', (r) => {
        const methods = Array.isArray(r.method) ? r.method : [r.method];
        for (const m of methods) {
          if (m === 'HEAD' || !r.url.startsWith('/api/') || r.url === '/api/health') continue;
          const p = r.config?.permission;
          seen.push({ route: `${m} ${r.url}`, access: p ? `${p.menu} ${p.perm}` : String(r.config?.access) });
        }
      });
      await registerAreas(app, { queues });
      return app;
    },
  });
});

afterAll(async () => {
  await ctx?.close();
  await queues?.close();
  await removeRedisPrefix(prefix);
});

/** (method path -> menu perm): docs/menus-and-routing.md; /excel uses EXPORT where the menu has it. */
const EXPECTED: Record<string, string> = {
  'POST /api/batch/settlement/run': 'BATCH_RUN APPROVE',
  'GET /api/batch/settlement/status': 'BATCH_RUN READ',
  'GET /api/batch/settlement/runs': 'BATCH_RUN READ',
  'POST /api/batch/settlement/:id/restart': 'BATCH_RUN APPROVE',
  'POST /api/batch/settlement/:id/fail': 'BATCH_RUN APPROVE',
  // State-changing sub-paths answer POST and PUT (one handler; spec 4.4/4.5 name both verbs).
  'PUT /api/batch/settlement/:id/restart': 'BATCH_RUN APPROVE',
  'PUT /api/batch/settlement/:id/fail': 'BATCH_RUN APPROVE',
  'POST /api/batch/settlement/ops-actions': 'BATCH_RUN APPROVE',
  'GET /api/settle': 'SETTLE_LIST READ',
  'GET /api/settle/excel': 'SETTLE_LIST READ',
  'GET /api/settle/summary': 'SETTLE_LIST READ',
  'GET /api/settle/:id': 'SETTLE_LIST READ',
  'GET /api/settle/:id/explain': 'SETTLE_LIST READ',
  'PUT /api/settle/:id/confirm': 'SETTLE_LIST APPROVE',
  'PUT /api/settle/:id/hold': 'SETTLE_LIST APPROVE',
  'PUT /api/settle/:id/release': 'SETTLE_LIST APPROVE',
  'POST /api/settle/:id/confirm': 'SETTLE_LIST APPROVE',
  'POST /api/settle/:id/hold': 'SETTLE_LIST APPROVE',
  'POST /api/settle/:id/release': 'SETTLE_LIST APPROVE',
  // month-wide confirm (issue 12)
  'POST /api/settle/confirm-month': 'SETTLE_LIST APPROVE',
  'PUT /api/settle/confirm-month': 'SETTLE_LIST APPROVE',
  'GET /api/ledger/recruit': 'LEDGER_RECRUIT READ',
  'GET /api/ledger/recruit/excel': 'LEDGER_RECRUIT EXPORT',
  'GET /api/ledger/maintain': 'LEDGER_MAINTAIN READ',
  'GET /api/ledger/maintain/excel': 'LEDGER_MAINTAIN EXPORT',
  'GET /api/ledger/exception': 'LEDGER_EXCEPTION READ',
  'GET /api/ledger/exception/excel': 'LEDGER_EXCEPTION READ',
  'POST /api/ledger/exception': 'LEDGER_EXCEPTION CREATE',
  'PUT /api/ledger/exception/:id/approve': 'LEDGER_EXCEPTION APPROVE',
  'PUT /api/ledger/exception/:id/reject': 'LEDGER_EXCEPTION APPROVE',
  'POST /api/ledger/exception/:id/approve': 'LEDGER_EXCEPTION APPROVE',
  'POST /api/ledger/exception/:id/reject': 'LEDGER_EXCEPTION APPROVE',
  'GET /api/recon': 'RECEIVE_DATA READ',
  'GET /api/recon/excel': 'RECEIVE_DATA READ',
  'GET /api/override-settles': 'OVERRIDE_LEDGER READ',
  'GET /api/override-settles/excel': 'OVERRIDE_LEDGER READ',
  'GET /api/chargebacks': 'RULE_CHARGEBACK READ',
  'GET /api/chargebacks/excel': 'RULE_CHARGEBACK READ',
  // settlement lifecycle (issue 15); workflow sub-paths answer POST and PUT
  'GET /api/period-closes': 'PERIOD_CLOSE READ',
  'GET /api/period-closes/excel': 'PERIOD_CLOSE READ',
  'GET /api/period-closes/check': 'PERIOD_CLOSE READ',
  'GET /api/period-closes/:id': 'PERIOD_CLOSE READ',
  'POST /api/period-closes': 'PERIOD_CLOSE CREATE',
  'POST /api/period-closes/:id/close': 'PERIOD_CLOSE UPDATE',
  'PUT /api/period-closes/:id/close': 'PERIOD_CLOSE UPDATE',
  'POST /api/period-closes/:id/reopen': 'PERIOD_CLOSE UPDATE',
  'PUT /api/period-closes/:id/reopen': 'PERIOD_CLOSE UPDATE',
  // Issue 27: a closed year's partitions in and out of the archive schema (SUPER_ADMIN checked by the service)
  'GET /api/period-closes/partitions': 'PERIOD_CLOSE READ',
  'POST /api/period-closes/partitions/archive': 'PERIOD_CLOSE UPDATE',
  'PUT /api/period-closes/partitions/archive': 'PERIOD_CLOSE UPDATE',
  'POST /api/period-closes/partitions/restore': 'PERIOD_CLOSE UPDATE',
  'PUT /api/period-closes/partitions/restore': 'PERIOD_CLOSE UPDATE',
  'GET /api/settle-corrections': 'SETTLE_CORRECTION READ',
  'GET /api/settle-corrections/excel': 'SETTLE_CORRECTION READ',
  'GET /api/settle-corrections/:id': 'SETTLE_CORRECTION READ',
  'POST /api/settle-corrections': 'SETTLE_CORRECTION CREATE',
  'PUT /api/settle-corrections/:id': 'SETTLE_CORRECTION UPDATE',
  'POST /api/settle-corrections/recalc': 'SETTLE_CORRECTION CREATE',
  'POST /api/settle-corrections/:id/approve': 'SETTLE_CORRECTION APPROVE',
  'PUT /api/settle-corrections/:id/approve': 'SETTLE_CORRECTION APPROVE',
  'POST /api/settle-corrections/:id/reject': 'SETTLE_CORRECTION APPROVE',
  'PUT /api/settle-corrections/:id/reject': 'SETTLE_CORRECTION APPROVE',
  'POST /api/settle-corrections/:id/cancel': 'SETTLE_CORRECTION UPDATE',
  'PUT /api/settle-corrections/:id/cancel': 'SETTLE_CORRECTION UPDATE',
  'GET /api/disputes': 'DISPUTE READ',
  'GET /api/disputes/excel': 'DISPUTE READ',
  'GET /api/disputes/:id': 'DISPUTE READ',
  'POST /api/disputes': 'DISPUTE CREATE',
  'POST /api/disputes/:id/review': 'DISPUTE UPDATE',
  'PUT /api/disputes/:id/review': 'DISPUTE UPDATE',
  'POST /api/disputes/:id/approve': 'DISPUTE APPROVE',
  'PUT /api/disputes/:id/approve': 'DISPUTE APPROVE',
  'POST /api/disputes/:id/reject': 'DISPUTE APPROVE',
  'PUT /api/disputes/:id/reject': 'DISPUTE APPROVE',
  'GET /api/settle-holds': 'SETTLE_LIST READ',
  'GET /api/settle-holds/excel': 'SETTLE_LIST READ',
  'GET /api/settle-holds/:id': 'SETTLE_LIST READ',
  'POST /api/settle-holds': 'SETTLE_LIST APPROVE',
  'GET /api/tax-invoices': 'TAX_INVOICE READ',
  'GET /api/tax-invoices/excel': 'TAX_INVOICE READ',
  'GET /api/tax-invoices/:id': 'TAX_INVOICE READ',
  'POST /api/tax-invoices/issue': 'TAX_INVOICE CREATE',
  'POST /api/tax-invoices/:id/cancel': 'TAX_INVOICE UPDATE',
  'PUT /api/tax-invoices/:id/cancel': 'TAX_INVOICE UPDATE',
  'GET /api/carrier-replies': 'RECON_OUT READ',
  'GET /api/carrier-replies/excel': 'RECON_OUT READ',
  'GET /api/carrier-replies/:id': 'RECON_OUT READ',
  'GET /api/carrier-replies/:id/download': 'RECON_OUT READ',
  'POST /api/carrier-replies/generate': 'RECON_OUT CREATE',
  'POST /api/carrier-replies/:id/send': 'RECON_OUT UPDATE',
  'PUT /api/carrier-replies/:id/send': 'RECON_OUT UPDATE',
  'GET /api/termination-settlements': 'TERM_SETTLE READ',
  'GET /api/termination-settlements/excel': 'TERM_SETTLE READ',
  'GET /api/termination-settlements/:id': 'TERM_SETTLE READ',
  'POST /api/termination-settlements': 'TERM_SETTLE CREATE',
  'POST /api/termination-settlements/:id/approve': 'TERM_SETTLE APPROVE',
  'PUT /api/termination-settlements/:id/approve': 'TERM_SETTLE APPROVE',
  'POST /api/termination-settlements/:id/cancel': 'TERM_SETTLE UPDATE',
  'PUT /api/termination-settlements/:id/cancel': 'TERM_SETTLE UPDATE',
  // incentive programs and payments (issue 16); the calculation is INCENTIVE_PAY CREATE
  'GET /api/incentive-programs': 'INCENTIVE_PROG READ',
  'GET /api/incentive-programs/excel': 'INCENTIVE_PROG READ',
  'GET /api/incentive-programs/:id': 'INCENTIVE_PROG READ',
  'POST /api/incentive-programs': 'INCENTIVE_PROG CREATE',
  'PUT /api/incentive-programs/:id': 'INCENTIVE_PROG UPDATE',
  'POST /api/incentive-programs/:id/activate': 'INCENTIVE_PROG UPDATE',
  'PUT /api/incentive-programs/:id/activate': 'INCENTIVE_PROG UPDATE',
  'POST /api/incentive-programs/:id/close': 'INCENTIVE_PROG UPDATE',
  'PUT /api/incentive-programs/:id/close': 'INCENTIVE_PROG UPDATE',
  'POST /api/incentive-programs/:id/calculate': 'INCENTIVE_PAY CREATE',
  'PUT /api/incentive-programs/:id/calculate': 'INCENTIVE_PAY CREATE',
  'GET /api/incentive-payments': 'INCENTIVE_PAY READ',
  'GET /api/incentive-payments/excel': 'INCENTIVE_PAY READ',
  'GET /api/incentive-payments/:id': 'INCENTIVE_PAY READ',
  'POST /api/incentive-payments/submit': 'INCENTIVE_PAY UPDATE',
  'PUT /api/incentive-payments/submit': 'INCENTIVE_PAY UPDATE',
  'POST /api/incentive-payments/:id/cancel': 'INCENTIVE_PAY UPDATE',
  'PUT /api/incentive-payments/:id/cancel': 'INCENTIVE_PAY UPDATE',
  // commission master, commission types and the other commission rows (issue 16)
  'GET /api/commission-master': 'COMM_MASTER READ',
  'GET /api/commission-master/excel': 'COMM_MASTER READ',
  'GET /api/commission-master/:id': 'COMM_MASTER READ',
  'PUT /api/commission-master/:id': 'COMM_MASTER UPDATE',
  'DELETE /api/commission-master/:id': 'COMM_MASTER DELETE',
  'GET /api/commission-types': 'COMM_TYPE READ',
  'GET /api/commission-types/excel': 'COMM_TYPE READ',
  'GET /api/commission-types/:id': 'COMM_TYPE READ',
  'POST /api/commission-types': 'COMM_TYPE CREATE',
  'PUT /api/commission-types/:id': 'COMM_TYPE UPDATE',
  'DELETE /api/commission-types/:id': 'COMM_TYPE DELETE',
  'GET /api/ledger/other-commissions': 'COMM_MASTER READ',
  'GET /api/ledger/other-commissions/excel': 'COMM_MASTER READ',
  // what-if simulations (issue 26)
  'GET /api/simulations': 'SIMULATION READ',
  'GET /api/simulations/excel': 'SIMULATION READ',
  'GET /api/simulations/rule-tables': 'SIMULATION READ',
  'GET /api/simulations/compare': 'SIMULATION READ',
  'GET /api/simulations/:id': 'SIMULATION READ',
  'POST /api/simulations': 'SIMULATION CREATE',
  'PUT /api/simulations/:id': 'SIMULATION CREATE',
  'DELETE /api/simulations/:id': 'SIMULATION DELETE',
  'POST /api/simulations/:id/run': 'SIMULATION CREATE',
  'PUT /api/simulations/:id/run': 'SIMULATION CREATE',
  'POST /api/simulations/:id/adopt': 'SIMULATION CREATE',
  'PUT /api/simulations/:id/adopt': 'SIMULATION CREATE',
  'GET /api/simulations/:id/summary': 'SIMULATION READ',
  'GET /api/simulations/:id/agents': 'SIMULATION READ',
  'GET /api/simulations/:id/export': 'SIMULATION READ',
  'GET /api/simulations/:id/orgs': 'SIMULATION READ',
  'GET /api/simulations/:id/agents/:agentId/explain': 'SIMULATION READ',
};

describe('routes of ledger-settlement', () => {
  it('every route declares the (menu, perm) pair of docs/menus-and-routing.md, and nothing else is exposed', () => {
    expect(Object.fromEntries(seen.map((s) => [s.route, s.access]))).toEqual(EXPECTED);
    assertAllRoutesGuarded(ctx.app);
  });

  it('every declared pair exists as a menu_permission row (a missing row would make the route answer 403)', async () => {
    const pairs = [...new Set(Object.values(EXPECTED))];
    for (const pair of pairs) {
      const [menu, perm] = pair.split(' ');
      const { rows } = await ctx.pool.query(
        `SELECT 1 FROM menu_permission mp JOIN menu m ON m.menu_id = mp.menu_id WHERE m.menu_code = $1 AND mp.perm_code = $2`,
        [menu, perm],
      );
      expect(rows.length, pair).toBe(1);
    }
  });

  it('every route needs a token (E401 without one)', async () => {
    for (const route of Object.keys(EXPECTED)) {
      const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT', string];
      const res = await ctx.app.inject({ method, url: url.replace(':id', '1') });
      expect(res.statusCode, route).toBe(401);
      expect(res.json().code, route).toBe('E401');
    }
  });

  it('the OpenAPI document builds and lists the paths', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/batch/settlement/run',
        '/api/settle/{id}/explain',
        '/api/ledger/exception/{id}/approve',
        '/api/recon',
      ]),
    );
  });
});
