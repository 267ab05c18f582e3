import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { unwrap, type PageResponse } from '../../api/envelope.js';
import type { paths } from '../../api/schema';
import type { SettleExplain } from '../settle-api.js';
import { monthViews, type MonthView } from './portal-model.js';

/**
 * The portal's calls. Every list is the server's own, row-scoped to the signed-in agent (an AGENT
 * user's lists hold only its rows), so no call names the agent except the balance.
 */
type ListRow<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data?: { list: (infer R)[] } } } } } } }
  ? R
  : never;
export type SettleRow = ListRow<'/api/settle'>;
export type PaymentRow = ListRow<'/api/payments'>;
export type DisputeRow = ListRow<'/api/disputes'>;
export type StatementRow = ListRow<'/api/statements'>;
export type WithdrawRow = ListRow<'/api/withdraw-requests'>;
export type Balance = paths['/api/withdraw-requests/balance']['get']['responses'][200]['content']['application/json']['data'];

/** At most two years of months on one page. */
const MONTHS = 24;
const newest = (field: string) => ({ pageSize: MONTHS, sortField: field, sortOrder: 'DESC' }) as never;

export const portalKeys = {
  months: ['portal', 'months'] as const,
  explain: (id: number) => ['portal', 'explain', id] as const,
  disputes: ['portal', 'disputes'] as const,
  statements: ['portal', 'statements'] as const,
  withdraws: ['portal', 'withdraws'] as const,
  balance: (agentId: number) => ['portal', 'balance', agentId] as const,
};

/** The agent's months, newest first, each with its parts of gross and its payment's deductions. */
export function useMyMonths() {
  return useQuery({
    queryKey: portalKeys.months,
    queryFn: async (): Promise<MonthView[]> => {
      const [settle, payments] = await Promise.all([
        api.GET('/api/settle', { params: { query: newest('settleMonth') } }),
        api.GET('/api/payments', { params: { query: newest('settleMonth') } }),
      ]);
      const rows = unwrap<PageResponse<SettleRow>>(settle).list;
      const paid = unwrap<PageResponse<PaymentRow>>(payments).list;
      return monthViews(
        rows.map((r) => ({ ...r, settleId: Number(r.settleId) })),
        paid.map((p) => ({
          settleId: p.settleId == null ? null : Number(p.settleId),
          incomeTaxAmount: p.incomeTaxAmount ?? null,
          localTaxAmount: p.localTaxAmount ?? null,
          vatAmount: p.vatAmount ?? null,
          deductionAmount: p.deductionAmount ?? null,
          netAmount: p.netAmount ?? null,
          taxCalculatedAt: p.taxCalculatedAt ?? null,
        })),
      );
    },
  });
}

export function useMyExplain(settleId: number) {
  return useQuery({
    queryKey: portalKeys.explain(settleId),
    enabled: Number.isInteger(settleId) && settleId > 0,
    queryFn: async () => unwrap<SettleExplain>(await api.GET('/api/settle/{id}/explain', { params: { path: { id: settleId } } })),
  });
}

export function useMyDisputes() {
  return useQuery({
    queryKey: portalKeys.disputes,
    queryFn: async () => unwrap<PageResponse<DisputeRow>>(await api.GET('/api/disputes', { params: { query: { pageSize: 100, sortField: 'disputeId', sortOrder: 'DESC' } as never } })).list,
  });
}

export function useMyStatements() {
  return useQuery({
    queryKey: portalKeys.statements,
    queryFn: async () => unwrap<PageResponse<StatementRow>>(await api.GET('/api/statements', { params: { query: newest('settleMonth') } })).list,
  });
}

export function useMyWithdraws() {
  return useQuery({
    queryKey: portalKeys.withdraws,
    queryFn: async () =>
      unwrap<PageResponse<WithdrawRow>>(await api.GET('/api/withdraw-requests', { params: { query: { pageSize: 50, sortField: 'withdrawId', sortOrder: 'DESC' } as never } })).list,
  });
}

export function useBalance(agentId: number | null | undefined) {
  return useQuery({
    queryKey: portalKeys.balance(agentId ?? 0),
    enabled: !!agentId,
    queryFn: async () => unwrap<Balance>(await api.GET('/api/withdraw-requests/balance', { params: { query: { agentId: agentId! } } })),
  });
}

export interface DisputeInput {
  targetTable: string;
  targetId: number;
  reasonCode: string;
  reasonText: string;
  claimedAmount?: string | undefined;
}

export async function raiseDispute(input: DisputeInput): Promise<number> {
  const body = { ...input, ...(input.claimedAmount ? { claimedAmount: input.claimedAmount } : { claimedAmount: undefined }) };
  return unwrap<{ id: number }>(await api.POST('/api/disputes', { body: body as never })).id;
}

export async function requestWithdraw(agentId: number, amount: string, note: string | undefined): Promise<number> {
  return unwrap<{ id: number }>(await api.POST('/api/withdraw-requests', { body: { agentId, amount, ...(note ? { note } : {}) } as never })).id;
}
