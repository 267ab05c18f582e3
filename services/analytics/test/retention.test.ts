import type { ServiceApp } from '@csp/service-kit';
import type { TestContext } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBook, type Book } from './book.js';
import { bearer, createAnalyticsContext } from './helpers.js';

let ctx: TestContext<ServiceApp>;
let book: Book;

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = ctx.adminToken) {
  return ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function data(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const res = await call(method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

interface RateRow {
  scope: string;
  orgId: number | null;
  agentId: number | null;
  cohortCount: number;
  retainedCount: number;
  retentionRate: string;
}

const rates = (list: RateRow[]) =>
  Object.fromEntries(list.map((r) => [`${r.scope}:${r.agentId ?? r.orgId ?? '-'}`, `${r.retainedCount}/${r.cohortCount} ${r.retentionRate}`]));

interface AlertRow {
  alertId: number;
  scope: string;
  orgId: number;
  agentId: number | null;
  alertType: string;
  retentionRate: string;
  previousRate: string | null;
  threshold: string | null;
  dropPoints: string | null;
  status: string;
}

const alertsOf = (list: AlertRow[]) =>
  Object.fromEntries(list.map((a) => [`${a.scope}:${a.agentId ?? a.orgId}:${a.alertType}`, [a.retentionRate, a.previousRate, a.threshold, a.dropPoints]]));

beforeAll(async () => {
  ctx = await createAnalyticsContext();
  book = await buildBook(ctx.db);
});

afterAll(async () => {
  await ctx?.close();
});

describe('retention', () => {
  it('the refresh of 202402 measures the 13-month retention of cohort 202301: the month-12 lapse is out, the month-14 lapse still in', async () => {
    const result = await data('POST', '/api/kpi/refresh?settleMonth=202402');
    expect(result.retentionRows).toBe(6);
    const { list } = await data('GET', '/api/kpi/retention?cohortMonthFrom=202301&cohortMonthTo=202301&horizon=13&pageSize=100');
    // a1: 10 contracts, the month-12 lapse (2024-01-20 < checkpoint 2024-02-10) out -> 9/10;
    // a3: 2 contracts, one TERMINATE -> 1/2 (fewer than 10 contracts: no agent row); C has no contract.
    expect(rates(list)).toEqual({
      'TOTAL:-': '10/12 83.3333',
      [`ORG:${book.hq}`]: '10/12 83.3333',
      [`ORG:${book.b}`]: '10/12 83.3333',
      [`ORG:${book.t1}`]: '9/10 90',
      [`ORG:${book.t2}`]: '1/2 50',
      [`AGENT:${book.a1}`]: '9/10 90',
    });
    expect(list.every((r: { measureMonth: string }) => r.measureMonth === '202402')).toBe(true);
  });

  it('the 25-month retention of cohort 202301 loses the month-14 lapse too', async () => {
    await data('POST', '/api/kpi/refresh?settleMonth=202502');
    const { list } = await data('GET', '/api/kpi/retention?cohortMonthFrom=202301&horizon=25&pageSize=100');
    expect(rates(list)).toEqual({
      'TOTAL:-': '9/12 75',
      [`ORG:${book.hq}`]: '9/12 75',
      [`ORG:${book.b}`]: '9/12 75',
      [`ORG:${book.t1}`]: '8/10 80',
      [`ORG:${book.t2}`]: '1/2 50',
      [`AGENT:${book.a1}`]: '8/10 80',
    });
  });
});

describe('retention anomalies', () => {
  it('the refresh detected the 13-month alerts of cohort 202301: below 80 % and falls of >= 10 points from cohort 202212 (100 %)', async () => {
    const { list } = await data('GET', '/api/retention-anomalies?cohortMonthFrom=202301&cohortMonthTo=202301&horizon=13&pageSize=100');
    expect(alertsOf(list)).toEqual({
      [`ORG:${book.t2}:BELOW_THRESHOLD`]: ['50', null, '80', null],
      [`AGENT:${book.a1}:DROP`]: ['90', '100', null, '10'],
      [`ORG:${book.t1}:DROP`]: ['90', '100', null, '10'],
      [`ORG:${book.b}:DROP`]: ['83.3333', '100', null, '16.6667'],
      [`ORG:${book.hq}:DROP`]: ['83.3333', '100', null, '16.6667'],
    });
    expect(list.every((a: AlertRow) => a.status === 'OPEN')).toBe(true);
  });

  it('detection is idempotent for a cohort: a second run creates, changes and removes nothing', async () => {
    const before = await data('GET', '/api/retention-anomalies?cohortMonthFrom=202301&cohortMonthTo=202301&pageSize=100');
    const first = await data('POST', '/api/retention-anomalies/detect', { cohortMonth: '202301' });
    // both horizons were detected by the refreshes of 202402 and 202502 already
    expect(first).toEqual([
      { cohortMonth: '202301', horizon: 13, skipped: null, created: 0, updated: 0, removed: 0, alerts: 5 },
      { cohortMonth: '202301', horizon: 25, skipped: null, created: 0, updated: 0, removed: 0, alerts: 5 },
    ]);
    const again = await data('POST', '/api/retention-anomalies/detect', { cohortMonth: '202301' });
    expect(again.map((r: { created: number; updated: number; removed: number }) => [r.created, r.updated, r.removed])).toEqual([[0, 0, 0], [0, 0, 0]]);
    const after = await data('GET', '/api/retention-anomalies?cohortMonthFrom=202301&cohortMonthTo=202301&pageSize=100');
    expect(after.list).toEqual(before.list);
    // 25 months (threshold 65): T2 below, falls of 20 and 25 points from cohort 202212
    const h25 = await data('GET', '/api/retention-anomalies?cohortMonthFrom=202301&horizon=25&pageSize=100');
    expect(alertsOf(h25.list)).toEqual({
      [`ORG:${book.t2}:BELOW_THRESHOLD`]: ['50', null, '65', null],
      [`AGENT:${book.a1}:DROP`]: ['80', '100', null, '20'],
      [`ORG:${book.t1}:DROP`]: ['80', '100', null, '20'],
      [`ORG:${book.b}:DROP`]: ['75', '100', null, '25'],
      [`ORG:${book.hq}:DROP`]: ['75', '100', null, '25'],
    });
  });

  it('a threshold from system_config changes what is detected, and alerts that no longer hold go away unless reviewed', async () => {
    const { list } = await data('GET', `/api/retention-anomalies?cohortMonthFrom=202301&horizon=13&scope=ORG&orgId=${book.t2}`);
    expect(list).toHaveLength(1);
    await data('POST', `/api/retention-anomalies/${list[0].alertId}/review`, { note: 'two contracts only' });
    await ctx.db.updateTable('system_config').set({ config_value: '95' }).where('config_key', '=', 'RETENTION_ALERT_DROP').execute();
    await ctx.db.updateTable('system_config').set({ config_value: '40' }).where('config_key', '=', 'RETENTION_ALERT_13M').execute();
    const [h13] = await data('POST', '/api/retention-anomalies/detect', { cohortMonth: '202301', horizon: 13 });
    // no DROP reaches 95 points, T2's 50 % is not below 40 %, but its alert was REVIEWED: it stays
    expect(h13).toMatchObject({ created: 0, updated: 0, removed: 4, alerts: 1 });
    await ctx.db.updateTable('system_config').set({ config_value: '10' }).where('config_key', '=', 'RETENTION_ALERT_DROP').execute();
    await ctx.db.updateTable('system_config').set({ config_value: '80' }).where('config_key', '=', 'RETENTION_ALERT_13M').execute();
    const [back] = await data('POST', '/api/retention-anomalies/detect', { cohortMonth: '202301', horizon: 13 });
    expect(back).toMatchObject({ created: 4, removed: 0, alerts: 5 });
  });

  it('review moves OPEN to REVIEWED with the note and the reviewer; POST and PUT both work, a second review is B001', async () => {
    const { list } = await data('GET', `/api/retention-anomalies?cohortMonthFrom=202301&horizon=25&agentId=${book.a1}`);
    const id = list[0].alertId;
    const res = await call('PUT', `/api/retention-anomalies/${id}/review`, { note: 'agent coached', version: list[0].version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ alertId: id, status: 'REVIEWED', reviewNote: 'agent coached', reviewedBy: expect.any(Number), version: list[0].version + 1 });
    const again = await call('POST', `/api/retention-anomalies/${id}/review`, { note: 'again' });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('B001');
    const open = await data('GET', '/api/retention-anomalies?status=OPEN&cohortMonthFrom=202301&horizon=25&pageSize=100');
    expect(open.list.map((a: AlertRow) => a.alertId)).not.toContain(id);
  });

  it('review needs a note and a current version', async () => {
    const { list } = await data('GET', '/api/retention-anomalies?status=OPEN&pageSize=1');
    const empty = await call('POST', `/api/retention-anomalies/${list[0].alertId}/review`, { note: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().data.errors[0].field).toBe('note');
    const stale = await call('POST', `/api/retention-anomalies/${list[0].alertId}/review`, { note: 'ok', version: list[0].version + 5 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('B002');
    const missing = await call('POST', '/api/retention-anomalies/999999/review', { note: 'ok' });
    expect(missing.statusCode).toBe(404);
  });

  it('a cohort whose horizon has not been reached is skipped', async () => {
    const result = await data('POST', '/api/retention-anomalies/detect', { cohortMonth: '209901', horizon: 25 });
    expect(result).toEqual([
      { cohortMonth: '209901', horizon: 25, skipped: 'the 25-month retention of 209901 is measured in 210102', created: 0, updated: 0, removed: 0, alerts: 0 },
    ]);
  });
});
