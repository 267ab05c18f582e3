import { defineStep, type StepContext, type StepCounts } from '@csp/batch';
import { formatMoney, toDec, type Dec } from '@csp/domain';
import { sql } from 'kysely';
import { loadReconThreshold } from '../batch/system-config.js';
import { intakeDb, type IntakeDb } from '../db.js';

interface CompanyTotals {
  company_code: string;
  expected_count: number;
  expected_amount: string;
  actual_count: number;
  actual_amount: string;
}

/**
 * Expected = carrier-reported company amounts of the month's raw rows (any parse status; rows whose
 * amount could not be parsed count 0), actual = reported_company_amount of the ledger rows that were
 * created from those raw rows. Sums are exact numeric in SQL.
 */
async function loadTotals(
  db: IntakeDb,
  settleMonth: string,
  companyCode: string | undefined,
): Promise<CompanyTotals[]> {
  // Right after a bulk intake the statistics are stale (hundreds of thousands of rows estimated as a
  // few): the planner then joins the month's ledger rows to their raw rows by a nested loop of index
  // lookups (18 s for 600,000 rows). Hash joins only, for this query (SET LOCAL ends with the
  // transaction). The raw side of the ledger join is the month's (and carrier's) raw rows: a ledger
  // row's raw row is of its month by construction, and only the carriers of `raw` are read.
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_nestloop = off`.execute(trx);
    return loadTotalsHashed(trx, settleMonth, companyCode);
  });
}

async function loadTotalsHashed(
  db: IntakeDb,
  settleMonth: string,
  companyCode: string | undefined,
): Promise<CompanyTotals[]> {
  const { rows } = await sql<CompanyTotals>`
    WITH led AS MATERIALIZED (
      SELECT r.company_code, count(*)::int AS actual_count, coalesce(sum(l.reported_company_amount), 0) AS actual_amount
      FROM (
        SELECT raw_id, reported_company_amount FROM recruit_ledger WHERE settle_month = ${settleMonth} AND raw_id IS NOT NULL
        UNION ALL
        SELECT raw_id, reported_company_amount FROM maintain_ledger WHERE settle_month = ${settleMonth} AND raw_id IS NOT NULL
      ) l
      JOIN raw_commission_data r ON r.raw_id = l.raw_id AND r.settle_month = ${settleMonth}
        ${companyCode === undefined ? sql`` : sql`AND r.company_code = ${companyCode}`}
      GROUP BY r.company_code
    ), raw AS (
      SELECT r.company_code, count(*)::int AS expected_count, coalesce(sum(r.reported_amount), 0) AS expected_amount
      FROM raw_commission_data r
      WHERE r.settle_month = ${settleMonth}
        ${companyCode === undefined ? sql`` : sql`AND r.company_code = ${companyCode}`}
      GROUP BY r.company_code
    )
    SELECT raw.company_code, raw.expected_count, raw.expected_amount::text AS expected_amount,
           coalesce(led.actual_count, 0) AS actual_count, coalesce(led.actual_amount, 0)::text AS actual_amount
    FROM raw LEFT JOIN led ON led.company_code = raw.company_code
    ORDER BY raw.company_code`.execute(db);
  return rows;
}

export interface ReconResult {
  expected: Dec;
  actual: Dec;
  diff: Dec;
  status: 'MATCHED' | 'DIFF';
}

/** diff = expected - actual; DIFF when |diff| > threshold. */
export function reconcileTotals(expected: string, actual: string, threshold: Dec): ReconResult {
  const e = toDec(expected, 'expected');
  const a = toDec(actual, 'actual');
  const diff = e.minus(a);
  return { expected: e, actual: a, diff, status: diff.abs().greaterThan(threshold) ? 'DIFF' : 'MATCHED' };
}

/**
 * Step 3 (DECISIONS "reconcile"): the intake completeness check per carrier and month, upserted into
 * reconciliation. Counts are carriers: success = MATCHED, error = DIFF. A carrier's row of the month
 * that no longer has raw rows is removed; an accepted difference (resolved_by) is kept only while
 * the figures stay the same.
 */
export const reconcile = defineStep({
  name: 'reconcile',
  run: async (ctx) => {
    const counts = await reconcileMonth(ctx);
    ctx.progress(counts.total);
    ctx.logger.info(counts, 'reconcile finished');
    return counts;
  },
});

/** What reconcileMonth needs: the step context, or the receive API's own (runId null). */
export interface ReconcileScope {
  db: StepContext['db'];
  settleMonth: string;
  companyCode: string | undefined;
  runId: number | null;
}

/** Step 3's work for a month (and carrier): upserts the reconciliation rows, returns carrier counts. */
export async function reconcileMonth(ctx: ReconcileScope): Promise<Required<StepCounts>> {
  const db = intakeDb(ctx.db);
  const threshold = await loadReconThreshold(db);
  const totals = await loadTotals(db, ctx.settleMonth, ctx.companyCode);
  const counts: Required<StepCounts> = { total: totals.length, success: 0, error: 0, skipped: 0 };

  await db.transaction().execute(async (trx) => {
    for (const t of totals) {
      const r = reconcileTotals(t.expected_amount, t.actual_amount, threshold);
      if (r.status === 'MATCHED') counts.success++;
      else counts.error++;
      const expectedAmount = formatMoney(r.expected);
      const actualAmount = formatMoney(r.actual);
      await trx
        .insertInto('reconciliation')
        .values({
          company_code: t.company_code,
          settle_month: ctx.settleMonth,
          expected_amount: expectedAmount,
          actual_amount: actualAmount,
          diff_amount: formatMoney(r.diff),
          recon_status: r.status,
          expected_count: t.expected_count,
          actual_count: t.actual_count,
          run_id: ctx.runId,
        })
        .onConflict((oc) =>
          oc.columns(['company_code', 'settle_month']).doUpdateSet((eb) => {
            const unchanged = sql<boolean>`reconciliation.expected_amount = ${expectedAmount}::numeric
                AND reconciliation.actual_amount = ${actualAmount}::numeric`;
            return {
              expected_amount: eb.ref('excluded.expected_amount'),
              actual_amount: eb.ref('excluded.actual_amount'),
              diff_amount: eb.ref('excluded.diff_amount'),
              recon_status: eb.ref('excluded.recon_status'),
              expected_count: eb.ref('excluded.expected_count'),
              actual_count: eb.ref('excluded.actual_count'),
              run_id: eb.ref('excluded.run_id'),
              resolved_by: sql<number | null>`CASE WHEN ${unchanged} THEN reconciliation.resolved_by END`,
              resolved_at: sql<Date | null>`CASE WHEN ${unchanged} THEN reconciliation.resolved_at END`,
              updated_at: sql<Date>`now()`,
            };
          }),
        )
        .execute();
    }
    await trx
      .deleteFrom('reconciliation')
      .where('settle_month', '=', ctx.settleMonth)
      .$if(ctx.companyCode !== undefined, (qb) => qb.where('company_code', '=', ctx.companyCode!))
      .$if(totals.length > 0, (qb) =>
        qb.where(
          'company_code',
          'not in',
          totals.map((t) => t.company_code),
        ),
      )
      .execute();
  });
  return counts;
}
