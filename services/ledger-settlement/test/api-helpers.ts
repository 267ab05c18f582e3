import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { signAccessToken, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { EventQueues, silentLog, startEventRuntime, type EventConsumer, type EventRuntime } from '@csp/events';
import { buildApp } from '../src/app.js';

export type Ctx = TestContext<ServiceApp> & { batchPrefix: string };
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The app on a fresh database, its batch queues under a random BullMQ prefix (removed on close). */
export async function startContext(): Promise<Ctx> {
  const batchPrefix = `csp-ls-api-${randomBytes(5).toString('hex')}`;
  const ctx = await createTestContext({
    serviceName: 'ledger-settlement',
    buildApp: (deps) => buildApp({ ...deps, batchPrefix }),
  });
  const close = ctx.close;
  return {
    ...ctx,
    batchPrefix,
    close: async () => {
      await close();
      await removeRedisPrefix(batchPrefix);
    },
  };
}

export async function removeRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export interface Res {
  status: number;
  body: any;
  raw: Buffer;
  headers: Record<string, unknown>;
}

export interface Api {
  get(url: string, token?: string): Promise<Res>;
  post(url: string, payload?: unknown, token?: string): Promise<Res>;
  put(url: string, payload?: unknown, token?: string): Promise<Res>;
}

/** app.inject with the admin token unless another is given. */
export function api(ctx: Ctx): Api {
  const call = async (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload: unknown,
    token?: string,
  ): Promise<Res> => {
    const res = await ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token ?? ctx.adminToken}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    const json = String(res.headers['content-type'] ?? '').includes('application/json');
    return {
      status: res.statusCode,
      body: json ? res.json() : undefined,
      raw: res.rawPayload,
      headers: res.headers,
    };
  };
  return {
    get: (url, token) => call('GET', url, undefined, token),
    post: (url, payload, token) => call('POST', url, payload, token),
    put: (url, payload, token) => call('PUT', url, payload, token),
  };
}

/** Reads an xlsx back: header row and data rows (cell values). */
export async function readSheet(raw: Buffer): Promise<{ header: unknown[]; rows: unknown[][] }> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(raw), {
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    worksheets: 'emit',
  });
  const all: unknown[][] = [];
  for await (const sheet of reader) {
    for await (const row of sheet) all.push((row.values as unknown[]).slice(1));
    break;
  }
  return { header: all[0] ?? [], rows: all.slice(1) };
}

/** A token of a user whose only role is AGENT, linked to `agentId` (null = no agent). */
export async function agentToken(
  ctx: Ctx,
  agentId: number | null,
  loginId = `agent_${agentId ?? 'none'}`,
): Promise<string> {
  const { rows } = await sql<{ user_id: number }>`
    INSERT INTO users (login_id, password, user_name, status, agent_id)
    VALUES (${loginId}, '!', ${loginId}, 'ACTIVE', ${agentId})
    ON CONFLICT (login_id) DO UPDATE SET agent_id = EXCLUDED.agent_id
    RETURNING user_id`.execute(ctx.db);
  const userId = Number(rows[0]!.user_id);
  await sql`
    INSERT INTO user_role (user_id, role_id) SELECT ${userId}, role_id FROM role WHERE role_code = 'AGENT'
    ON CONFLICT (user_id, role_id) DO NOTHING`.execute(ctx.db);
  return signAccessToken(ctx.app, { userId, loginId, userName: loginId, roleCodes: ['AGENT'], agentId });
}

export interface MiniBook {
  hqId: number;
  teamId: number;
  otherTeamId: number;
  /** FC in the team, TM leader of the team, FC in the other team */
  fc: number;
  leader: number;
  other: number;
  productId: number;
  contracts: number[];
}

/** A tiny book by SQL (these tests are about the API, not about the batch). */
export async function seedMiniBook(ctx: Ctx): Promise<MiniBook> {
  const q = async <T>(text: string, params: unknown[] = []) =>
    (await ctx.pool.query(text, params)).rows as T[];
  const [hq] = await q<{ org_id: number }>(
    `INSERT INTO organization (org_name, org_type, org_level) VALUES ('HQ', 'HQ', 1) RETURNING org_id`,
  );
  const [team] = await q<{ org_id: number }>(
    `INSERT INTO organization (parent_org_id, org_name, org_type, org_level) VALUES ($1, 'Team A', 'TM', 2) RETURNING org_id`,
    [hq!.org_id],
  );
  const [other] = await q<{ org_id: number }>(
    `INSERT INTO organization (parent_org_id, org_name, org_type, org_level) VALUES ($1, 'Team B', 'TM', 2) RETURNING org_id`,
    [hq!.org_id],
  );
  const agent = async (orgId: number, gradeId: number, name: string) =>
    Number(
      (
        await q<{ agent_id: number }>(
          `INSERT INTO agent (org_id, grade_id, agent_name) VALUES ($1, $2, $3) RETURNING agent_id`,
          [orgId, gradeId, name],
        )
      )[0]!.agent_id,
    );
  const fc = await agent(team!.org_id, 1, 'Kim FC');
  const leader = await agent(team!.org_id, 3, 'Lee Leader');
  const otherFc = await agent(other!.org_id, 1, 'Park Other');
  const [company] = await q<{ company_id: number }>(
    `INSERT INTO insurance_company (company_code, company_name, company_type) VALUES ('L001', 'Life One', 'LIFE') RETURNING company_id`,
  );
  const [product] = await q<{ product_id: number }>(
    `INSERT INTO product (company_id, product_code, product_name, insurance_type) VALUES ($1, 'P1', 'Whole life', 'LIFE') RETURNING product_id`,
    [company!.company_id],
  );
  const contracts: number[] = [];
  for (const [i, agentId] of [fc, fc, otherFc].entries()) {
    const [c] = await q<{ contract_id: number }>(
      `INSERT INTO contract (agent_id, product_id, policy_no, premium, contract_date) VALUES ($1, $2, $3, '100000.00', '2025-01-10') RETURNING contract_id`,
      [agentId, product!.product_id, `POL-${i + 1}`],
    );
    contracts.push(Number(c!.contract_id));
  }
  return {
    hqId: Number(hq!.org_id),
    teamId: Number(team!.org_id),
    otherTeamId: Number(other!.org_id),
    fc,
    leader,
    other: otherFc,
    productId: Number(product!.product_id),
    contracts,
  };
}

export interface LedgerSeed {
  agentId: number;
  contractId: number;
  settleMonth: string;
  commissionYear?: number;
  premium?: string;
  companyRate?: string;
  companyAmount: string;
  payoutRate?: string;
  agentAmount: string;
  reconcileStatus?: string;
  policyNo?: string;
  status?: string;
  calcBasis?: unknown;
}

export async function insertLedger(
  ctx: Ctx,
  table: 'recruit_ledger' | 'maintain_ledger',
  row: LedgerSeed,
): Promise<number> {
  const { rows } = await ctx.pool.query<{ ledger_id: number }>(
    `INSERT INTO ${table} (contract_id, agent_id, policy_no, company_code, product_code, insurance_type, commission_year, premium,
       company_rate, company_amount, payout_rate, agent_amount, reconcile_status, settle_month, status, calc_basis)
     VALUES ($1, $2, $3, 'L001', 'P1', 'LIFE', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ledger_id`,
    [
      row.contractId,
      row.agentId,
      row.policyNo ?? `POL-${row.contractId}`,
      row.commissionYear ?? (table === 'recruit_ledger' ? 1 : 2),
      row.premium ?? '100000.00',
      row.companyRate ?? '10',
      row.companyAmount,
      row.payoutRate ?? '50',
      row.agentAmount,
      row.reconcileStatus ?? 'PENDING',
      row.settleMonth,
      row.status ?? 'CALCULATED',
      JSON.stringify(row.calcBasis ?? { step: table === 'recruit_ledger' ? 'calcRecruit' : 'calcMaintain' }),
    ],
  );
  return Number(rows[0]!.ledger_id);
}

export interface SettleSeed {
  agentId: number;
  settleMonth: string;
  recruit?: string;
  maintain?: string;
  override?: string;
  plus?: string;
  minus?: string;
  chargeback?: string;
  gross?: string;
  tax?: string;
  net?: string;
  status?: string;
  taxRate?: string;
}

export async function insertSettle(ctx: Ctx, s: SettleSeed): Promise<number> {
  const { rows } = await ctx.pool.query<{ settle_id: number }>(
    `INSERT INTO settle_master (agent_id, settle_month, recruit_total, maintain_total, override_total, exception_plus,
       exception_minus, chargeback_total, gross_amount, tax_amount, net_amount, status, calc_date, calc_basis)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now(), $13) RETURNING settle_id`,
    [
      s.agentId,
      s.settleMonth,
      s.recruit ?? '0',
      s.maintain ?? '0',
      s.override ?? '0',
      s.plus ?? '0',
      s.minus ?? '0',
      s.chargeback ?? '0',
      s.gross ?? '0',
      s.tax ?? '0',
      s.net ?? '0',
      s.status ?? 'CALCULATED',
      JSON.stringify({ taxRate: s.taxRate ?? '3.3' }),
    ],
  );
  return Number(rows[0]!.settle_id);
}

export async function statusesOf(
  ctx: Ctx,
  table: string,
  where: string,
  params: unknown[],
): Promise<string[]> {
  const { rows } = await ctx.pool.query<{ status: string }>(
    `SELECT status FROM ${table} WHERE ${where} ORDER BY 1`,
    params,
  );
  return rows.map((r) => r.status);
}

/**
 * Delivers one outbox event twice: its relayed job and a second job of the same event under another job id
 * (which BullMQ cannot de-duplicate), through a real event runtime with `consumer`. Returns the consumer's
 * outcome of each delivery ('applied', 'duplicate', ...), sorted.
 */
export async function deliverTwice(
  ctx: Ctx,
  prefix: string,
  event: { event_id: number; event_key: string; event_type: string; target: string },
  consumer: EventConsumer,
): Promise<string[]> {
  const queues = new EventQueues(REDIS_URL, { prefix, attempts: 3, backoffMs: 20 });
  const outcomes: string[] = [];
  let runtime: EventRuntime | undefined;
  try {
    await queues.publish([{ eventId: event.event_id, eventKey: event.event_key, type: event.event_type, target: event.target }], '-again');
    runtime = startEventRuntime({
      db: ctx.db,
      connection: REDIS_URL,
      settings: { enabled: true, relay: true, prefix, pollMs: 20, attempts: 3, backoffMs: 20, concurrency: 2, lockMs: undefined, stalledMs: undefined },
      consumer,
      logger: silentLog,
    });
    runtime.consumer!.worker.on('completed', (job, result) => {
      if (job.data.eventId === event.event_id) outcomes.push(result);
    });
    const deadline = Date.now() + 20_000;
    while (outcomes.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  } finally {
    await runtime?.close();
    await queues.close();
  }
  return outcomes.sort();
}
