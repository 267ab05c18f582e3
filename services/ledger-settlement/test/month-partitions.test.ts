import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import { SETTLE_MONTH_TABLES, ensureMonthPartitions, type Database } from '@csp/db';
import { listPage, type AuthUser } from '@csp/service-kit';
import { exceptionLedgerResource, maintainLedgerResource, recruitLedgerResource } from '../src/ledgers/ledgers.resource.js';
import { settleResource } from '../src/settle/settle.resource.js';
import { api, insertLedger, insertSettle, readSheet, seedMiniBook, startContext, type Api, type Ctx, type MiniBook } from './api-helpers.js';

/**
 * Issue 27: every month query of the batch and of the lists reads the month's partitions only (EXPLAIN), and a
 * closed year's partitions are archived and restored by a SUPER_ADMIN, the lists reading them on request.
 */
let ctx: Ctx;
let a: Api;
let book: MiniBook;
/** The settle row of month 202401, whose ledger lines are archived in the test. */
let settle202401: number;
const MONTH = '202502';
const MONTHS = ['202401', '202402', '202501', MONTH, '202503'];

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  for (const m of MONTHS) await ensureMonthPartitions(ctx.db, m);
  const [c1, c2] = book.contracts as [number, number];
  await insertLedger(ctx, 'maintain_ledger', { agentId: book.fc, contractId: c1, settleMonth: '202401', companyAmount: '200.00', agentAmount: '100.25' });
  await insertLedger(ctx, 'maintain_ledger', { agentId: book.fc, contractId: c2, settleMonth: '202401', companyAmount: '80.00', agentAmount: '40.10' });
  await insertLedger(ctx, 'maintain_ledger', { agentId: book.fc, contractId: c1, settleMonth: MONTH, companyAmount: '10.00', agentAmount: '5.00' });
  settle202401 = await insertSettle(ctx, { agentId: book.fc, settleMonth: '202401', maintain: '140.35', gross: '140.35', tax: '4.63', net: '135.72', status: 'CONFIRMED' });
  await ctx.pool.query('ANALYZE');
});
afterAll(async () => {
  await ctx?.close();
});

const PARTITION = new RegExp(`^(${SETTLE_MONTH_TABLES.join('|')})_p([0-9]{6}|default)$`);

/** The partitions of month tables an EXPLAIN of the statement reads. */
async function partitionsRead(statement: string, params: readonly unknown[]): Promise<string[]> {
  const { rows } = await ctx.pool.query<{ 'QUERY PLAN': { Plan: Record<string, unknown> }[] }>(
    `EXPLAIN (FORMAT JSON) ${statement}`,
    [...params],
  );
  const names = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    const name = node['Relation Name'];
    if (typeof name === 'string' && PARTITION.test(name)) names.add(name);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0]!.Plan);
  return [...names].sort();
}

/** Fails unless every month-table partition read is the month's own (and at least one is read). */
async function expectMonthOnly(statement: string, params: readonly unknown[], month: string): Promise<void> {
  const read = await partitionsRead(statement, params);
  expect(read.length, statement).toBeGreaterThan(0);
  for (const name of read) expect(name, statement).toMatch(new RegExp(`_p${month}$`));
}

const range = [MONTH, 1, 999_999] as const;

/** One statement per step of the month run (steps 4-9), in the shape the step issues it. */
const STEP_STATEMENTS: Record<string, [string, readonly unknown[]]> = {
  'calcRecruit: the chunk\'s existing rows': [
    'SELECT ledger_id, contract_id, status FROM recruit_ledger WHERE settle_month = $1 AND contract_id BETWEEN $2 AND $3', range],
  'calcMaintain: stale computed rows of the chunk': [
    `DELETE FROM maintain_ledger t USING unnest($2::bigint[], $3::int[]) AS k(contract_id, commission_year)
      WHERE t.settle_month = $1 AND t.contract_id = k.contract_id AND t.commission_year = k.commission_year
        AND t.status = 'CALCULATED' AND t.raw_id IS NULL`, [MONTH, [1, 2], [2, 3]]],
  'calcOtherCommission: the chunk\'s CALCULATED rows': [
    `DELETE FROM other_commission_ledger WHERE settle_month = $1 AND agent_id BETWEEN $2 AND $3 AND status = 'CALCULATED'`, range],
  'chargebackException: recurring exceptions due': [
    `SELECT ledger_id FROM exception_ledger WHERE settle_month = $1 AND recurring_parent_id IS NOT NULL`, [MONTH]],
  'calcOverride: the month\'s ledger sums per agent': [
    `SELECT agent_id, sum(agent_amount) FROM (
       SELECT agent_id, agent_amount FROM recruit_ledger WHERE settle_month = $1
       UNION ALL SELECT agent_id, agent_amount FROM maintain_ledger WHERE settle_month = $1) l GROUP BY agent_id`, [MONTH]],
  'aggregate: sources of a chunk': [
    `SELECT agent_id, sum(agent_amount) FROM recruit_ledger WHERE settle_month = $1 AND agent_id BETWEEN $2 AND $3 GROUP BY agent_id
     UNION ALL SELECT to_agent_id, sum(override_amount) FROM override_settle WHERE settle_month = $1 AND to_agent_id BETWEEN $2 AND $3 GROUP BY to_agent_id
     UNION ALL SELECT agent_id, sum(computed_amount) FROM commission_master WHERE settle_month = $1 AND agent_id BETWEEN $2 AND $3 GROUP BY agent_id
     UNION ALL SELECT agent_id, sum(amount) FROM exception_ledger WHERE settle_month = $1 AND agent_id BETWEEN $2 AND $3 AND approve_status = 'APPROVED' GROUP BY agent_id`, range],
  'aggregate: receivers\' override rows point at their settle row': [
    `UPDATE override_settle o SET settle_id = s.settle_id FROM settle_master s
      WHERE o.settle_month = $1 AND o.to_agent_id BETWEEN $2 AND $3 AND s.agent_id = o.to_agent_id
        AND s.settle_month = o.settle_month AND o.settle_id IS DISTINCT FROM s.settle_id`, range],
  'accountingEntryGenerate: unposted entries of the month': [
    `DELETE FROM contract_accounting_entry e WHERE e.settle_month = $1 AND e.journal_no IS NULL AND e.ledger_type IN ('RECRUIT', 'MAINTAIN')`, [MONTH]],
};

describe('a month query reads the month\'s partitions only', () => {
  for (const [step, [statement, params]] of Object.entries(STEP_STATEMENTS)) {
    it(`batch ${step}`, async () => {
      await expectMonthOnly(statement, params, MONTH);
    });
  }

  /** The statements a list page issues (page, rows, count), captured from the resource's own query builder. */
  async function listStatements(resource: Parameters<typeof listPage>[1], query: Record<string, unknown>): Promise<CompiledQuery[]> {
    const captured: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: ctx.pool }),
      log: (event) => {
        if (event.level === 'query') captured.push(event.query);
      },
    });
    const user: AuthUser = { userId: 1, loginId: 'admin', userName: 'admin', roleCodes: ['SUPER_ADMIN'], agentId: null };
    await listPage({ db } as unknown as Parameters<typeof listPage>[0], resource, { pageSize: 20, ...query } as never, user);
    return captured;
  }

  const LISTS = {
    '/api/ledger/maintain': maintainLedgerResource,
    '/api/ledger/recruit': recruitLedgerResource,
    '/api/ledger/exception': exceptionLedgerResource,
    '/api/settle': settleResource,
  };
  for (const [path, resource] of Object.entries(LISTS)) {
    for (const pageNum of [1, 500]) {
      it(`list ${path}?settleMonth=${MONTH}, page ${pageNum}`, async () => {
        const statements = await listStatements(resource, { settleMonth: MONTH, pageNum });
        const monthly = statements.filter((q) => SETTLE_MONTH_TABLES.some((t) => q.sql.includes(`"${t}"`)));
        expect(monthly.length).toBeGreaterThan(0);
        for (const q of monthly) await expectMonthOnly(q.sql, q.parameters, MONTH);
      });
    }
  }
});

describe('archive of a closed year (SUPER_ADMIN, change-logged)', () => {
  const closeYear2024 = async () => {
    for (const m of ['202401', '202402']) {
      await ctx.pool.query(
        `INSERT INTO period_close (settle_month, status, closed_at) VALUES ($1, 'CLOSED', now())
         ON CONFLICT (settle_month) DO UPDATE SET status = 'CLOSED', closed_at = now()`,
        [m],
      );
    }
  };
  const maintainOf = async (query: string) => {
    const res = await a.get(`/api/ledger/maintain?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.list.map((r: { settleMonth: string; agentAmount: string }) => [r.settleMonth, r.agentAmount]);
  };

  it('refuses a year with an open month (E411) and a user who is not SUPER_ADMIN (403)', async () => {
    const open = await a.post('/api/period-closes/partitions/archive', { year: 2024 });
    expect(open.status).toBe(400);
    expect(JSON.stringify(open.body)).toContain('202401 is not closed');
    await closeYear2024();
    const admin = await a.post('/api/period-closes/partitions/archive', { year: 2024 }, await ctx.tokenFor('ADMIN'));
    expect(admin.status).toBe(403);
    expect(JSON.stringify(admin.body)).toContain('SUPER_ADMIN');
    expect((await a.get('/api/period-closes/partitions')).body.data.archivedMonths).toEqual([]);
  });

  it('detach -> the list lacks the month -> includeArchive reads it -> re-attach -> the list has it again', async () => {
    await closeYear2024();
    const archived = await a.post('/api/period-closes/partitions/archive', { year: 2024 });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body.data).toEqual({
      year: 2024,
      months: ['202401', '202402'],
      tables: ['commission_master', 'contract_accounting_entry', 'exception_ledger', 'maintain_ledger',
        'other_commission_ledger', 'override_settle', 'recruit_ledger'],
    });
    expect((await a.get('/api/period-closes/partitions')).body.data.archivedMonths).toEqual(['202401', '202402']);

    expect(await maintainOf('settleMonth=202401')).toEqual([]);
    expect(await maintainOf('settleMonth=202401&includeArchive=true&sortField=agentAmount&sortOrder=DESC')).toEqual([
      ['202401', '100.25'],
      ['202401', '40.10'],
    ]);
    // the live months read as before, with or without the archive
    expect(await maintainOf(`settleMonth=${MONTH}&includeArchive=true`)).toEqual([[MONTH, '5.00']]);
    // explain of the archived month: the settle row is there, its ledger lines only with includeArchive
    const explainOf = async (query: string) => {
      const res = await a.get(`/api/settle/${settle202401}/explain${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const data = res.body.data as { sections: { maintain: { agentAmount: string }[] }; totals: { maintain: string }; reconciles: boolean };
      return { maintain: data.sections.maintain.map((l) => l.agentAmount).sort(), total: data.totals.maintain, reconciles: data.reconciles };
    };
    expect(await explainOf('')).toEqual({ maintain: [], total: '0.00', reconciles: false });
    expect(await explainOf('?includeArchive=true')).toEqual({ maintain: ['100.25', '40.10'], total: '140.35', reconciles: true });
    // the export of the archived month, the same way
    const sheetRows = async (query: string) => {
      const res = await a.get(`/api/ledger/maintain/excel?settleMonth=202401${query}`);
      expect(res.status).toBe(200);
      return (await readSheet(res.raw)).rows.length;
    };
    expect(await sheetRows('')).toBe(0);
    expect(await sheetRows('&includeArchive=true')).toBe(2);
    // settle rows stay attached (payments, holds and disputes hold keys into them)
    const settle = await a.get('/api/settle?settleMonth=202401');
    expect(settle.body.data.list.map((r: { netAmount: string }) => r.netAmount)).toEqual(['135.72']);

    await ctx.app.changeLogWriter.flush();
    const log = await ctx.pool.query<{ record_id: string; action: string }>(
      `SELECT record_id, action FROM data_change_log WHERE table_name = 'period_close' AND record_id LIKE 'archive-%'`,
    );
    expect(log.rows).toEqual([{ record_id: 'archive-2024', action: 'UPDATE' }]);

    const restored = await a.put('/api/period-closes/partitions/restore', { year: 2024 });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.data.months).toEqual(['202401', '202402']);
    expect((await a.get('/api/period-closes/partitions')).body.data.archivedMonths).toEqual([]);
    expect(await maintainOf('settleMonth=202401&sortField=agentAmount&sortOrder=DESC')).toEqual([
      ['202401', '100.25'],
      ['202401', '40.10'],
    ]);
  });
});
