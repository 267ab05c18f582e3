import { api } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import type { paths } from '../api/schema';

export type SettleRow =
  paths['/api/settle']['get']['responses'][200]['content']['application/json']['data']['list'][number];
export type SettleSummary =
  paths['/api/settle/summary']['get']['responses'][200]['content']['application/json']['data'];
export type SettleExplain =
  paths['/api/settle/{id}/explain']['get']['responses'][200]['content']['application/json']['data'];

export async function confirmSettle(id: number): Promise<void> {
  unwrap(await api.PUT('/api/settle/{id}/confirm', { params: { path: { id } } }));
}

export async function holdSettle(id: number, reason: string, reasonCode?: string): Promise<void> {
  unwrap(await api.PUT('/api/settle/{id}/hold', { params: { path: { id } }, body: { reason, ...(reasonCode ? { reasonCode } : {}) } }));
}

export async function releaseSettle(id: number): Promise<void> {
  unwrap(await api.PUT('/api/settle/{id}/release', { params: { path: { id } } }));
}

export type SettleMonthConfirmed =
  paths['/api/settle/confirm-month']['post']['responses'][200]['content']['application/json']['data'];

/** Every CALCULATED row of the month in one server transaction (HOLD rows and open disputes are skipped). */
export async function confirmSettleMonth(settleMonth: string): Promise<SettleMonthConfirmed> {
  return unwrap<SettleMonthConfirmed>(await api.POST('/api/settle/confirm-month', { body: { settleMonth } }));
}
