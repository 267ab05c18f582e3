import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.js';
import { unwrap, type PageResponse } from '../api/envelope.js';
import type { paths } from '../api/schema';
import { useMyMenus } from '../shell/menus.js';
import { quarterOf, type MonthFacts } from './month-close.js';

type Data<P extends keyof paths, M extends 'get' = 'get'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;
type Row<P extends keyof paths> = Data<P> extends { list: (infer R)[] } ? R : never;

export type ReceiveStatus = Data<'/api/receive/status'>;
export type Carrier = ReceiveStatus['carriers'][number];
export type Hold = Row<'/api/settle-holds'>;
export type PaymentSummary = Data<'/api/payments/month-summary'>;
export type AccountingClose = Row<'/api/accounting-closes'>;
export type PeriodCheck = Data<'/api/period-closes/check'>;
export interface Run {
  jobLogId: number;
  status: string;
  startedAt: string | null;
  settleMonth: string;
}
/** A confirmed settlement generate left without a payment (the only reason it skips one: no bank account). */
export type SkippedAgent = PaymentSummary['unpaidAgents'][number];

// Where the month stands is read afresh on every visit (the app keeps other answers 30 s).
const fresh = { staleTime: 0 } as const;
/** Every cockpit answer starts with this key: an action of the cockpit refreshes them all. */
export const CLOSE_KEY = 'month-close';

async function page<T>(promise: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<PageResponse<T>> {
  return unwrap<PageResponse<T>>(await promise);
}

/** Whether `at` is no earlier than every one of `times` (ISO timestamps compare as text only in one zone: by Date). */
function since(at: string | null | undefined, times: (string | null | undefined)[]): boolean {
  if (!at) return false;
  const t = Date.parse(at);
  return times.every((x) => !x || Date.parse(x) <= t);
}

/** One answer of the cockpit for a month (the same calls in the same order on every render). */
function useCloseQuery<T>(month: string, name: string, enabled: boolean, queryFn: () => Promise<T>) {
  return useQuery({ queryKey: [CLOSE_KEY, name, month], enabled, ...fresh, queryFn });
}

/** The latest run of any month: the cockpit opens on its month. */
export function useLatestRun(enabled: boolean) {
  return useQuery({
    queryKey: [CLOSE_KEY, 'latest-run'],
    enabled,
    ...fresh,
    queryFn: async () => (await page<Run>(api.GET('/api/batch/settlement/runs', { params: { query: { pageSize: 1 } as never } }))).list[0] ?? null,
  });
}

/**
 * Everything the cockpit shows for a month, each read only when the user may see its menu; nothing is read
 * before `enabled` (the month is known). `loading` while any read of the month is still on its way.
 */
export function useMonthClose(month: string, enabled = true) {
  const { menus } = useMyMenus();
  const can = (menu: string) => enabled && (menus?.can(menu, 'READ') ?? false);
  const reads: { isLoading: boolean }[] = [];
  const q = <T>(name: string, menu: string, fn: () => Promise<T>, extra = true) => {
    const read = useCloseQuery(month, name, can(menu) && extra, fn);
    reads.push(read);
    return read;
  };

  const receive = q('receive', 'RECEIVE_DATA', async () =>
    unwrap<ReceiveStatus>(await api.GET('/api/receive/status', { params: { query: { settleMonth: month } } })),
  );
  const run = q('run', 'BATCH_RUN', async () =>
    (await page<Run>(api.GET('/api/batch/settlement/runs', { params: { query: { settleMonth: month, pageSize: 1 } as never } }))).list[0] ?? null,
  );
  const summary = q('summary', 'SETTLE_LIST', async () =>
    unwrap<Data<'/api/settle/summary'>>(await api.GET('/api/settle/summary', { params: { query: { settleMonth: month } } })),
  );
  const exceptions = q('exceptions', 'LEDGER_EXCEPTION', async () =>
    (await page(api.GET('/api/ledger/exception', { params: { query: { settleMonth: month, approveStatus: 'PENDING', pageSize: 1 } as never } }))).total,
  );
  const holds = q('holds', 'SETTLE_LIST', async () =>
    page<Hold>(api.GET('/api/settle-holds', { params: { query: { settleMonthFrom: month, settleMonthTo: month, status: 'ACTIVE', pageSize: 5 } as never } })),
  );
  const disputes = q('disputes', 'DISPUTE', async () => {
    const count = async (status: string) =>
      (await page(api.GET('/api/disputes', { params: { query: { settleMonthFrom: month, settleMonthTo: month, status, pageSize: 1 } as never } }))).total;
    return (await count('OPEN')) + (await count('IN_REVIEW'));
  });
  // Counts and the agents still to pay from one read (the month may hold tens of thousands of payments).
  const payments = q('payments', 'PAYMENT', async () =>
    unwrap<PaymentSummary>(await api.GET('/api/payments/month-summary', { params: { query: { settleMonth: month } } })),
  );
  const pay = payments.data;
  // After a generate, what is still to pay is what it skipped (the only reason it leaves one: no bank account).
  const skipped: SkippedAgent[] = pay && pay.payments > 0 ? pay.unpaidAgents : [];
  const statements = q('statements', 'STATEMENT', async () =>
    (await page(api.GET('/api/statements', { params: { query: { settleMonth: month, statementType: 'MONTHLY', pageSize: 1 } as never } }))).total,
  );
  const entries = q('entries', 'ACCOUNTING_JOURNAL', async () =>
    (await page(api.GET('/api/accounting-entries', { params: { query: { settleMonth: month, pageSize: 1 } as never } }))).total,
  );
  const accountingClose = q('accounting-close', 'ACCOUNTING_JOURNAL', async () =>
    (await page<AccountingClose>(api.GET('/api/accounting-closes', { params: { query: { settleMonth: month, pageSize: 1 } as never } }))).list[0] ?? null,
  );
  const quarter = quarterOf(month);
  // A regeneration rewrites every row not yet filed: the newest change among a few rows is the last regeneration.
  const withholding = q('withholding', 'WITHHOLDING_TAX', async () => {
    const rows = await page<{ updatedAt: string | null }>(api.GET('/api/withholding-tax-reports', { params: { query: { settleQuarter: quarter, pageSize: 50 } as never } }));
    return { total: rows.total, updatedAt: rows.list.reduce<string | null>((m, r) => (r.updatedAt && (!m || r.updatedAt > m) ? r.updatedAt : m), null) };
  });
  const vat = q('vat', 'VAT_REPORT', async () =>
    (await page(api.GET('/api/vat-reports', { params: { query: { settleQuarter: quarter, pageSize: 1 } as never } }))).total,
  );
  const period = q('period', 'PERIOD_CLOSE', async () =>
    unwrap<PeriodCheck>(await api.GET('/api/period-closes/check', { params: { query: { settleMonth: month } } })),
  );

  const by = (status: string) => summary.data?.byStatus.find((b) => b.status === status)?.count ?? 0;
  const facts: MonthFacts = {
    expectedCarriers: receive.data?.expectedCount ?? 0,
    receivedCarriers: receive.data?.receivedCount ?? 0,
    openParseErrors: (receive.data?.carriers ?? []).reduce((n, c) => n + c.openErrorCount, 0),
    diffCarriers: (receive.data?.carriers ?? []).filter((c) => c.reconStatus === 'DIFF').length,
    runStatus: run.data?.status ?? (summary.data && summary.data.count > 0 ? 'COMPLETED' : null),
    rows: summary.data?.count ?? 0,
    calculated: by('CALCULATED'),
    hold: by('HOLD'),
    confirmedOrPaid: by('CONFIRMED') + by('PAID'),
    pendingExceptions: exceptions.data ?? 0,
    openDisputes: disputes.data ?? 0,
    payments: pay?.payments ?? 0,
    taxed: pay?.taxed ?? 0,
    transferred: pay?.transferred ?? 0,
    skipped: pay && pay.payments > 0 ? pay.unpaid : 0,
    statements: statements.data ?? 0,
    accountingClosed: accountingClose.data?.status === 'CLOSED',
    taxReports: withholding.data?.total ?? 0,
    taxReportsCurrent: since(withholding.data?.updatedAt, [pay?.latestAt]),
    periodClosed: period.data?.status === 'CLOSED',
    closable: period.data?.closable ?? false,
  };
  return {
    loading: !enabled || !menus || reads.some((r) => r.isLoading),
    facts,
    receive: receive.data,
    run: run.data ?? null,
    holds: holds.data,
    deducted: pay?.deducted ?? 0,
    skipped,
    entries: entries.data ?? 0,
    accountingClose: accountingClose.data ?? null,
    vatReports: vat.data ?? 0,
    period: period.data,
    quarter,
  };
}
