import type { StepContext, StepCounts } from '@csp/batch';
import { sql, type Insertable } from 'kysely';
import type { ExceptionLedgerTable } from '@csp/db';
import { formatMoney, retroDifference } from '@csp/domain';
import { pricingOf } from '../calc/pricing.js';
import type { Executor } from '../period-closes/month-guard.js';
import { lineKey, priorCompensation, type RepriceLine } from './compensation.js';
import { repriceRow, ruleSourceOf, storedLedgerColumns, storedRefs, type StoredLedgerRow } from './reprice.js';
import { historyTable } from '../calc/db.js';

const RETRO_CODES = ['RETRO_PLUS', 'RETRO_MINUS'] as const;

interface Revision {
  rule_table: 'commission_rate' | 'payout_rule';
  rule_id: number;
  version: number;
}

/**
 * Rule rows changed since some ledger rows used them (version > 1) whose revision this month's run has
 * not left to an earlier month: a revision is scanned by the first month run after it (and by re-runs of
 * that month), never again.
 */
async function revisionsToScan(trx: Executor, month: string): Promise<Revision[]> {
  const { rows } = await sql<Revision>`
    SELECT r.rule_table, r.rule_id, r.version FROM (
      SELECT 'commission_rate'::text AS rule_table, rate_id AS rule_id, version FROM commission_rate WHERE version > 1
      UNION ALL
      SELECT 'payout_rule', rule_id, version FROM payout_rule WHERE version > 1
    ) r
    LEFT JOIN retro_rule_scan s ON s.rule_table = r.rule_table AND s.rule_id = r.rule_id AND s.rule_version = r.version
    WHERE s.rule_id IS NULL OR s.settle_month = ${month}
    ORDER BY 1, 2`.execute(trx);
  return rows.map((r) => ({ ...r, rule_id: Number(r.rule_id) }));
}

/** Locked (CONFIRMED/HOLD/PAID) ledger rows of earlier months priced with one of the revised rule rows. */
async function candidateRows(trx: Executor, ctx: StepContext, revisions: Revision[]): Promise<StoredLedgerRow[]> {
  const rateIds = revisions.filter((r) => r.rule_table === 'commission_rate').map((r) => r.rule_id);
  const ruleIds = revisions.filter((r) => r.rule_table === 'payout_rule').map((r) => r.rule_id);
  const out: StoredLedgerRow[] = [];
  for (const table of ['recruit_ledger', 'maintain_ledger'] as const) {
    const { rows } = await sql<StoredLedgerRow>`
      SELECT ${storedLedgerColumns(table)}
      FROM ${historyTable(table)} l JOIN contract c ON c.contract_id = l.contract_id JOIN agent a ON a.agent_id = l.agent_id
      WHERE l.settle_month < ${ctx.settleMonth} AND l.status <> 'CALCULATED'
        ${ctx.companyCode === undefined ? sql`` : sql`AND l.company_code = ${ctx.companyCode}`}
        AND ((l.calc_basis->'companyRate'->>'rateId')::bigint = ANY(${rateIds}::bigint[])
          OR (l.calc_basis->'payoutRule'->>'ruleId')::bigint = ANY(${ruleIds}::bigint[]))
      ORDER BY l.ledger_id`.execute(trx);
    out.push(...rows);
  }
  return out;
}

/**
 * Step 6, RETRO_PLUS / RETRO_MINUS (auto_calc_yn = 'Y'): when a commission_rate or payout_rule row was
 * revised after locked ledger rows of earlier months used it (the row's basis names the rule id and an
 * older version), each such row is re-priced under today's rules; per (agent, contract) the difference not
 * yet made up becomes one PENDING AUTO exception row of this month (PLUS or MINUS) with every line and
 * both rule versions in its calc_basis. Idempotent: this month's PENDING AUTO RETRO rows are replaced;
 * decided ones and earlier months' rows count as made up. Agents whose month is locked are skipped (the
 * revision is then scanned again next month).
 */
export async function createRetroExceptions(trx: Executor, ctx: StepContext): Promise<StepCounts> {
  const month = ctx.settleMonth;
  const none: StepCounts = { total: 0, success: 0, error: 0, skipped: 0 };
  const codes = await trx
    .selectFrom('exception_type_code')
    .select(['exception_code', 'direction'])
    .where('exception_code', 'in', [...RETRO_CODES])
    .where('is_active', '=', true)
    .where('auto_calc_yn', '=', 'Y')
    .execute();
  const codeOf = new Map(codes.map((c) => [c.direction, c.exception_code]));
  await trx
    .deleteFrom('exception_ledger')
    .where('settle_month', '=', month)
    .where('source', '=', 'AUTO')
    .where('approve_status', '=', 'PENDING')
    .where('exception_code', 'in', [...RETRO_CODES])
    // recurring children of a RETRO parent are the recurring step's
    .where(sql<string>`calc_basis->>'kind'`, '=', 'RETRO')
    .execute();
  if (codes.length === 0) return none;
  const revisions = await revisionsToScan(trx, month);
  if (revisions.length === 0) return none;

  const currentVersion = new Map(revisions.map((r) => [`${r.rule_table}:${r.rule_id}`, r.version]));
  const stale = (await candidateRows(trx, ctx, revisions)).filter((row) => {
    const refs = storedRefs(row);
    const newer = (table: string, ref: { id: number; version: number } | null) =>
      ref !== null && (currentVersion.get(`${table}:${ref.id}`) ?? 0) > ref.version;
    return newer('commission_rate', refs.companyRate) || newer('payout_rule', refs.payoutRule);
  });

  const locked = new Set(
    (
      await trx
        .selectFrom('settle_master')
        .select('agent_id')
        .where('settle_month', '=', month)
        .where('status', 'in', ['CONFIRMED', 'HOLD', 'PAID'])
        .where('agent_id', 'in', stale.length > 0 ? [...new Set(stale.map((r) => r.agent_id))] : [0])
        .execute()
    ).map((r) => Number(r.agent_id)),
  );
  const rules = ruleSourceOf(await pricingOf(ctx));
  const prior = await priorCompensation(trx, {
    contractIds: [...new Set(stale.map((r) => r.contract_id))],
    agentIds: [...new Set(stale.map((r) => r.agent_id))],
  });

  const groups = new Map<string, StoredLedgerRow[]>();
  for (const row of stale) {
    const key = `${row.agent_id}:${row.contract_id}`;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }

  const counts: StepCounts = { total: stale.length, success: 0, error: 0, skipped: 0 };
  const inserts: Array<Insertable<ExceptionLedgerTable>> = [];
  for (const rows of groups.values()) {
    const first = rows[0]!;
    if (locked.has(Number(first.agent_id))) {
      counts.skipped = (counts.skipped ?? 0) + rows.length;
      continue;
    }
    const priced = rows.map((row) => ({
      row,
      repriced: repriceRow(row, rules),
      compensated: prior.get(lineKey(row.ledger_table, row.ledger_id)) ?? '0.00',
    }));
    const diff = retroDifference(
      priced.map((p) => ({ stored: p.row.agent_amount, repriced: p.repriced.agentAmount, compensated: p.compensated })),
    );
    const code = diff.direction && codeOf.get(diff.direction);
    if (!code) continue;
    const lines: RepriceLine[] = priced.map((p, i) => {
      const stored = storedRefs(p.row);
      return {
        table: p.row.ledger_table,
        ledgerId: Number(p.row.ledger_id),
        settleMonth: p.row.settle_month,
        commissionYear: p.row.commission_year,
        stored: formatMoney(p.row.agent_amount),
        repriced: p.repriced.agentAmount,
        compensated: p.compensated,
        diff: formatMoney(diff.diffs[i]!),
        companyRate: { from: stored.companyRate, to: p.repriced.companyRate },
        payoutRule: { from: stored.payoutRule, to: p.repriced.payoutRule },
      };
    });
    inserts.push({
      agent_id: first.agent_id,
      contract_id: first.contract_id,
      policy_no: first.policy_no,
      company_code: first.company_code,
      product_code: first.product_code,
      insurance_type: first.insurance_type,
      settle_month: month,
      exception_code: code,
      direction: diff.direction!,
      amount: formatMoney(diff.amount),
      reason: 'Retroactive rule revision',
      source: 'AUTO',
      approve_status: 'PENDING',
      status: 'NEW',
      run_id: ctx.runId,
      calc_basis: JSON.stringify({
        step: 'chargebackException',
        runId: ctx.runId,
        kind: 'RETRO',
        total: formatMoney(diff.total),
        lines,
      }),
    });
    counts.success++;
  }
  for (let i = 0; i < inserts.length; i += 1000) {
    const part = inserts.slice(i, i + 1000);
    await trx.insertInto('exception_ledger').values(part)
      .execute();
  }
  // A revision is done once no agent had to be skipped; otherwise the next month scans it again.
  if ((counts.skipped ?? 0) === 0) {
    const perRevision = new Map<string, number>();
    for (const row of stale) {
      const refs = storedRefs(row);
      for (const [table, ref] of [['commission_rate', refs.companyRate], ['payout_rule', refs.payoutRule]] as const) {
        if (ref) perRevision.set(`${table}:${ref.id}`, (perRevision.get(`${table}:${ref.id}`) ?? 0) + 1);
      }
    }
    await trx
      .insertInto('retro_rule_scan')
      .values(
        revisions.map((r) => ({
          rule_table: r.rule_table,
          rule_id: r.rule_id,
          rule_version: r.version,
          settle_month: month,
          run_id: ctx.runId,
          ledger_rows: perRevision.get(`${r.rule_table}:${r.rule_id}`) ?? 0,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['rule_table', 'rule_id', 'rule_version']).doUpdateSet({
          run_id: ctx.runId,
          ledger_rows: sql`excluded.ledger_rows`,
          scanned_at: sql`now()`,
        }),
      )
      .execute();
  }
  return counts;
}
