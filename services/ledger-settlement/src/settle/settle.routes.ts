import { sql } from 'kysely';
import { z } from 'zod';
import {
  action,
  envelope,
  invalid,
  money,
  ok,
  perm,
  readDb,
  registerResource,
  restrictToOwnAgent,
  zId,
  zSettleMonth,
  type ServiceApp,
} from '@csp/service-kit';
import { SETTLE_STATUSES, settleResource } from './settle.resource.js';
import { confirmMonth, moveSettlement } from './settle.service.js';

const MENU = 'SETTLE_LIST';
const tags = ['Settlement'];
const params = z.object({ id: zId });
const holdReq = z.object({
  reason: z.string().trim().min(1).max(1000),
  reasonCode: z.string().trim().min(1).max(30).optional(),
});

const confirmMonthReq = z.object({
  settleMonth: zSettleMonth,
  agentIds: z.array(zId).min(1).max(100_000).optional(),
  orgId: zId.optional(),
});
const confirmMonthResp = z.object({
  settleMonth: z.string(),
  total: z.number().int(),
  confirmed: z.number().int(),
  skippedHold: z.number().int(),
  skippedDispute: z.number().int(),
  alreadyConfirmed: z.number().int(),
  alreadyPaid: z.number().int(),
  ledgerRows: z.record(z.string(), z.number().int()),
  approval: z.object({ lines: z.array(z.string()), required: z.boolean(), openRequests: z.number().int() }),
});

/** The summary's money columns, response name -> settle_master column: every part of gross, gross, tax and net. */
const TOTAL_COLUMNS = {
  recruit: 'recruit_total',
  maintain: 'maintain_total',
  override: 'override_total',
  exceptionPlus: 'exception_plus',
  exceptionMinus: 'exception_minus',
  chargeback: 'chargeback_total',
  /** approved corrections booked into the month; part of gross */
  correction: 'correction_total',
  /** other commission types, approved incentives and adjustments; part of gross */
  other: 'other_total',
  gross: 'gross_amount',
  tax: 'tax_amount',
  net: 'net_amount',
} as const;
type TotalName = keyof typeof TOTAL_COLUMNS;
const TOTAL_NAMES = Object.keys(TOTAL_COLUMNS) as TotalName[];

const moneyTotals = z.object(
  Object.fromEntries(TOTAL_NAMES.map((name) => [name, z.string()])) as Record<TotalName, z.ZodString>,
);
const summaryResp = z.object({
  settleMonth: z.string(),
  count: z.number().int(),
  totals: moneyTotals,
  byStatus: z.array(
    z.object({ status: z.enum(SETTLE_STATUSES), count: z.number().int(), totals: moneyTotals }),
  ),
});

type SumRow = { status: string | null; count: number | string } & Record<TotalName, string>;

const totalsOf = (r: SumRow | undefined): z.input<typeof moneyTotals> =>
  Object.fromEntries(TOTAL_NAMES.map((name) => [name, money(r?.[name] ?? '0')])) as Record<TotalName, string>;

/** Settlement list/detail/summary and the confirm/hold/release moves (spec 3.2, 4.5). */
export async function registerSettleRoutes(app: ServiceApp): Promise<void> {
  const db = () => app.db;

  app.get(
    '/api/settle/summary',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Monthly summary: counts per status and totals of every money column (exact numeric sums)',
        querystring: z.object({ settleMonth: zSettleMonth }),
        response: { 200: envelope(summaryResp) },
      },
    },
    async (request) => {
      const { settleMonth } = request.query;
      // A report: off the replica (settle_master is never archived).
      const base = restrictToOwnAgent(
        (await readDb(request)).selectFrom('settle_master as s').where('s.settle_month', '=', settleMonth),
        request.user,
        ['s.agent_id'],
      );
      // GROUPING SETS: one row per status plus the grand total (status NULL), all summed as numeric.
      const rows = (await base
        .select([
          's.status',
          sql<number>`count(*)`.as('count'),
          ...TOTAL_NAMES.map((name) => sql<string>`coalesce(sum(${sql.ref(`s.${TOTAL_COLUMNS[name]}`)}), 0)`.as(name)),
        ])
        .groupBy(sql`grouping sets ((s.status), ())`)
        .execute()) as SumRow[];
      const total = rows.find((r) => r.status === null);
      const byStatus = SETTLE_STATUSES.map((status) => {
        const r = rows.find((x) => x.status === status);
        return { status, count: Number(r?.count ?? 0), totals: totalsOf(r) };
      });
      return ok({ settleMonth, count: Number(total?.count ?? 0), totals: totalsOf(total), byStatus });
    },
  );

  registerResource(app, settleResource);

  action(
    app,
    '/api/settle/confirm-month',
    {
      config: perm(MENU, 'APPROVE'),
      schema: {
        tags,
        summary:
          'Confirm every CALCULATED settlement of the month (optionally of some agents or of an organization) and its ' +
          'ledger rows in one transaction; HOLD rows and agents with an open dispute of the month are skipped and counted; ' +
          'a closed month is B001. SETTLE approval lines do not gate a confirmation (as for the single confirm)',
        body: confirmMonthReq,
        response: { 200: envelope(confirmMonthResp) },
      },
    },
    async (request) => {
      const { settleMonth, agentIds, orgId } = request.body;
      const result = await confirmMonth(db(), { settleMonth, agentIds, orgId, userId: request.user?.userId ?? null });
      // One entry for the whole month, with the counts (not one per row).
      request.changeLog({
        menuCode: MENU,
        tableName: 'settle_master',
        recordId: settleMonth,
        action: 'APPROVE',
        after: { operation: 'confirm-month', filter: { agentIds: agentIds ?? null, orgId: orgId ?? null }, ...result },
      });
      const lines = result.approval.lines.join(', ');
      const approvals =
        result.approval.lines.length === 0
          ? ''
          : `; SETTLE approval line(s) ${lines} are optional and were not waited for` +
            (result.approval.openRequests > 0 ? ` (${result.approval.openRequests} confirmed row(s) had a PENDING approval request)` : '');
      return ok(
        result,
        `${result.confirmed} settlement(s) of ${settleMonth} confirmed; skipped ${result.skippedHold} on HOLD and ` +
          `${result.skippedDispute} with an open dispute; ${result.alreadyConfirmed} already CONFIRMED, ${result.alreadyPaid} PAID${approvals}`,
      );
    },
  );

  for (const step of ['confirm', 'release'] as const) {
    action(
      app,
      `/api/settle/:id/${step}`,
      {
        config: perm(MENU, 'APPROVE'),
        schema: {
          tags,
          summary:
            step === 'confirm'
              ? 'Confirm a CALCULATED settlement (else B001); its ledger rows become CONFIRMED'
              : 'Release a HOLD settlement back to CALCULATED (else B001)',
          params,
          response: { 200: envelope() },
        },
      },
      async (request) => {
        const result = await moveSettlement(db(), {
          settleId: request.params.id,
          action: step,
          userId: request.user?.userId ?? null,
        });
        request.changeLog({
          menuCode: MENU,
          tableName: 'settle_master',
          recordId: request.params.id,
          action: step === 'confirm' ? 'APPROVE' : 'UPDATE',
          before: result.before,
          after: { ...result.after, ledgerRows: result.ledgerRows },
        });
        return ok();
      },
    );
  }

  action(
    app,
    '/api/settle/:id/hold',
    {
      config: perm(MENU, 'APPROVE'),
      schema: {
        tags,
        summary: 'Hold a CALCULATED or CONFIRMED settlement with a reason (else B001)',
        params,
        body: holdReq,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const { reason, reasonCode } = request.body;
      if (reasonCode) {
        const code = await db()
          .selectFrom('common_code')
          .select('code')
          .where('group_code', '=', 'HOLD_REASON')
          .where('code', '=', reasonCode)
          .executeTakeFirst();
        if (!code) throw invalid('reasonCode', 'is not a HOLD_REASON code');
      }
      const result = await moveSettlement(db(), {
        settleId: request.params.id,
        action: 'hold',
        userId: request.user?.userId ?? null,
        reason,
        reasonCode: reasonCode ?? null,
      });
      request.changeLog({
        menuCode: MENU,
        tableName: 'settle_master',
        recordId: request.params.id,
        action: 'UPDATE',
        before: result.before,
        after: { ...result.after, ledgerRows: result.ledgerRows },
      });
      return ok();
    },
  );
}
