import { z } from 'zod';
import { isoTimestamp, money, zId, zSettleMonth } from '@csp/service-kit';
import { moneyCol, text, timeCol } from '../ledgers/columns.js';
import { defineList, eq } from '../ledgers/list-definition.js';

export const SETTLE_STATUSES = ['CALCULATED', 'CONFIRMED', 'HOLD', 'PAID'] as const;
export type SettleStatus = (typeof SETTLE_STATUSES)[number];

export const settleResp = z.object({
  settleId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  gradeName: z.string().nullable(),
  settleMonth: z.string(),
  recruitTotal: z.string(),
  maintainTotal: z.string(),
  overrideTotal: z.string(),
  exceptionPlus: z.string(),
  exceptionMinus: z.string(),
  chargebackTotal: z.string(),
  grossAmount: z.string(),
  taxAmount: z.string(),
  netAmount: z.string(),
  status: z.enum(SETTLE_STATUSES),
  statusName: z.string().nullable(),
  calcDate: z.string().nullable(),
  confirmedBy: z.number().int().nullable(),
  confirmedAt: z.string().nullable(),
  holdReason: z.string().nullable(),
  holdReasonCode: z.string().nullable(),
  releasedBy: z.number().int().nullable(),
  releasedAt: z.string().nullable(),
  runId: z.number().int().nullable(),
  version: z.number().int(),
  updatedAt: z.string(),
});

const idOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** settle_master with agent, organization and grade names (list, /excel, detail). */
export const settleList = defineList({
  name: 'Settlement',
  basePath: '/api/settle',
  menu: 'SETTLE_LIST',
  tags: ['Settlement'],
  exportPerm: 'READ',
  from: (db) =>
    db
      .selectFrom('settle_master as s')
      .leftJoin('agent as a', 'a.agent_id', 's.agent_id')
      .leftJoin('organization as o', 'o.org_id', 'a.org_id')
      .leftJoin('grade as g', 'g.grade_id', 'a.grade_id')
      .leftJoin('common_code as sc', (j) => j.onRef('sc.code', '=', 's.status').on('sc.group_code', '=', 'SETTLE_STATUS')),
  columns: [
    's.settle_id', 's.agent_id', 'a.agent_name', 'a.org_id', 'o.org_name', 'g.grade_name', 's.settle_month', 's.recruit_total',
    's.maintain_total', 's.override_total', 's.exception_plus', 's.exception_minus', 's.chargeback_total', 's.gross_amount',
    's.tax_amount', 's.net_amount', 's.status', 'sc.code_name as status_name', 's.calc_date', 's.confirmed_by',
    's.confirmed_at', 's.hold_reason', 's.hold_reason_code', 's.released_by', 's.released_at', 's.run_id', 's.version',
    's.updated_at',
  ],
  filters: {
    settleMonth: eq('s.settle_month', zSettleMonth),
    agentId: eq('s.agent_id', zId),
    orgId: eq('a.org_id', zId),
    status: eq('s.status', z.enum(SETTLE_STATUSES)),
  },
  sortable: {
    settleId: 's.settle_id',
    agentId: 's.agent_id',
    agentName: 'a.agent_name',
    settleMonth: 's.settle_month',
    grossAmount: 's.gross_amount',
    netAmount: 's.net_amount',
  },
  defaultSort: 's.settle_id',
  ownerColumns: ['s.agent_id'],
  respSchema: settleResp,
  toResp: (r) => ({
    settleId: Number(r.settle_id),
    agentId: Number(r.agent_id),
    agentName: r.agent_name,
    orgId: idOrNull(r.org_id),
    orgName: r.org_name,
    gradeName: r.grade_name,
    settleMonth: r.settle_month,
    recruitTotal: money(r.recruit_total),
    maintainTotal: money(r.maintain_total),
    overrideTotal: money(r.override_total),
    exceptionPlus: money(r.exception_plus),
    exceptionMinus: money(r.exception_minus),
    chargebackTotal: money(r.chargeback_total),
    grossAmount: money(r.gross_amount),
    taxAmount: money(r.tax_amount),
    netAmount: money(r.net_amount),
    status: r.status,
    statusName: r.status_name,
    calcDate: isoTimestamp(r.calc_date),
    confirmedBy: idOrNull(r.confirmed_by),
    confirmedAt: isoTimestamp(r.confirmed_at),
    holdReason: r.hold_reason,
    holdReasonCode: r.hold_reason_code,
    releasedBy: idOrNull(r.released_by),
    releasedAt: isoTimestamp(r.released_at),
    runId: idOrNull(r.run_id),
    version: r.version,
    updatedAt: isoTimestamp(r.updated_at)!,
  }),
  exportColumns: [
    text('Settle ID', 'settle_id'),
    text('Settle month', 'settle_month'),
    text('Agent ID', 'agent_id'),
    text('Agent', 'agent_name', 18),
    text('Organization', 'org_name', 20),
    moneyCol('Recruit', 'recruit_total'),
    moneyCol('Maintain', 'maintain_total'),
    moneyCol('Override', 'override_total'),
    moneyCol('Exception plus', 'exception_plus'),
    moneyCol('Exception minus', 'exception_minus'),
    moneyCol('Chargeback', 'chargeback_total'),
    moneyCol('Gross', 'gross_amount'),
    moneyCol('Tax', 'tax_amount'),
    moneyCol('Net', 'net_amount'),
    text('Status', 'status'),
    timeCol('Confirmed at', 'confirmed_at'),
    text('Hold reason', 'hold_reason', 30),
  ],
});
