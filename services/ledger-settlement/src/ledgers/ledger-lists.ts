import { sql } from 'kysely';
import { z } from 'zod';
import { isoDate, isoTimestamp, money, rate, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { moneyCol, rateCol, text, timeCol } from './columns.js';
import { defineList, eq, registerList, type ListDefinition } from './list-definition.js';

const LEDGER_STATUSES = ['CALCULATED', 'CONFIRMED', 'HOLD', 'PAID'] as const;
const RECONCILE_STATUSES = ['PENDING', 'MATCHED', 'DIFF'] as const;
const APPROVE_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const;
const zCode = z.string().trim().min(1).max(30);

// ---- recruit_ledger / maintain_ledger (same columns) ---------------------------------------

export const commissionLedgerResp = z.object({
  ledgerId: z.number().int(),
  contractId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  policyNo: z.string().nullable(),
  companyCode: z.string().nullable(),
  productCode: z.string().nullable(),
  insuranceType: z.string().nullable(),
  commissionYear: z.number().int(),
  premium: z.string(),
  payMethod: z.string().nullable(),
  companyRate: z.string(),
  companyAmount: z.string(),
  payoutRate: z.string(),
  agentAmount: z.string(),
  taxAmount: z.string(),
  reportedPremium: z.string().nullable(),
  reportedCompanyAmount: z.string().nullable(),
  reconcileStatus: z.enum(RECONCILE_STATUSES),
  reconcileDiff: z.string().nullable(),
  /** Maintain rows paid to a successor: the agent handing over (from calc_basis.succession). */
  successionFromAgentId: z.number().int().nullable(),
  settleMonth: z.string(),
  status: z.enum(LEDGER_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});

function commissionLedger(name: string, table: 'recruit_ledger' | 'maintain_ledger', basePath: string, menu: string) {
  return defineList({
    name,
    basePath,
    menu,
    tags: ['Ledger'],
    exportPerm: 'EXPORT',
    from: (db) => db.selectFrom(`${table} as l`).leftJoin('agent as a', 'a.agent_id', 'l.agent_id'),
    columns: [
      'l.ledger_id', 'l.contract_id', 'l.agent_id', 'a.agent_name', 'l.policy_no', 'l.company_code', 'l.product_code',
      'l.insurance_type', 'l.commission_year', 'l.premium', 'l.pay_method', 'l.company_rate', 'l.company_amount',
      'l.payout_rate', 'l.agent_amount', 'l.tax_amount', 'l.reported_premium', 'l.reported_company_amount',
      'l.reconcile_status', 'l.reconcile_diff', 'l.settle_month', 'l.status', 'l.created_at', 'l.updated_at',
      sql<string | null>`l.calc_basis->'succession'->>'fromAgentId'`.as('succession_from_agent_id'),
    ],
    filters: {
      settleMonth: eq('l.settle_month', zSettleMonth),
      agentId: eq('l.agent_id', zId),
      contractId: eq('l.contract_id', zId),
      policyNo: eq('l.policy_no', z.string().trim().min(1).max(50)),
      companyCode: eq('l.company_code', zCode),
      reconcileStatus: eq('l.reconcile_status', z.enum(RECONCILE_STATUSES)),
      status: eq('l.status', z.enum(LEDGER_STATUSES)),
    },
    sortable: {
      ledgerId: 'l.ledger_id',
      contractId: 'l.contract_id',
      agentId: 'l.agent_id',
      policyNo: 'l.policy_no',
      settleMonth: 'l.settle_month',
      agentAmount: 'l.agent_amount',
      companyAmount: 'l.company_amount',
    },
    defaultSort: 'l.ledger_id',
    ownerColumns: ['l.agent_id'],
    respSchema: commissionLedgerResp,
    toResp: (r) => ({
      ledgerId: Number(r.ledger_id),
      contractId: Number(r.contract_id),
      agentId: Number(r.agent_id),
      agentName: r.agent_name,
      policyNo: r.policy_no,
      companyCode: r.company_code,
      productCode: r.product_code,
      insuranceType: r.insurance_type,
      commissionYear: r.commission_year,
      premium: money(r.premium),
      payMethod: r.pay_method,
      companyRate: rate(r.company_rate),
      companyAmount: money(r.company_amount),
      payoutRate: rate(r.payout_rate),
      agentAmount: money(r.agent_amount),
      taxAmount: money(r.tax_amount),
      reportedPremium: money(r.reported_premium),
      reportedCompanyAmount: money(r.reported_company_amount),
      reconcileStatus: r.reconcile_status,
      reconcileDiff: money(r.reconcile_diff),
      successionFromAgentId: r.succession_from_agent_id === null ? null : Number(r.succession_from_agent_id),
      settleMonth: r.settle_month,
      status: r.status,
      createdAt: isoTimestamp(r.created_at)!,
      updatedAt: isoTimestamp(r.updated_at)!,
    }),
    exportColumns: [
      text('Ledger ID', 'ledger_id'),
      text('Settle month', 'settle_month'),
      text('Contract ID', 'contract_id'),
      text('Policy no', 'policy_no', 18),
      text('Agent ID', 'agent_id'),
      text('Agent', 'agent_name', 18),
      text('Company', 'company_code'),
      text('Product', 'product_code', 14),
      text('Insurance type', 'insurance_type'),
      text('Commission year', 'commission_year'),
      moneyCol('Premium', 'premium'),
      rateCol('Company rate (%)', 'company_rate'),
      moneyCol('Company amount', 'company_amount'),
      rateCol('Payout rate (%)', 'payout_rate'),
      moneyCol('Agent amount', 'agent_amount'),
      moneyCol('Tax', 'tax_amount'),
      moneyCol('Reported company amount', 'reported_company_amount'),
      text('Reconcile status', 'reconcile_status'),
      moneyCol('Reconcile diff', 'reconcile_diff'),
      text('Succession from agent', 'succession_from_agent_id'),
      text('Status', 'status'),
    ],
  });
}

export const recruitLedgerList = commissionLedger('RecruitLedger', 'recruit_ledger', '/api/ledger/recruit', 'LEDGER_RECRUIT');
export const maintainLedgerList = commissionLedger('MaintainLedger', 'maintain_ledger', '/api/ledger/maintain', 'LEDGER_MAINTAIN');

// ---- exception_ledger ------------------------------------------------------------------------

export const exceptionLedgerResp = z.object({
  ledgerId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  contractId: z.number().int().nullable(),
  policyNo: z.string().nullable(),
  settleMonth: z.string(),
  exceptionCode: z.string(),
  exceptionName: z.string().nullable(),
  direction: z.enum(['PLUS', 'MINUS']),
  amount: z.string(),
  reason: z.string().nullable(),
  status: z.enum(['NEW', 'APPLIED', 'CANCELLED']),
  approveStatus: z.enum(APPROVE_STATUSES),
  approverId: z.number().int().nullable(),
  approveDate: z.string().nullable(),
  rejectReason: z.string().nullable(),
  recurringYn: z.enum(['Y', 'N']),
  recurringUntil: z.string().nullable(),
  recurringParentId: z.number().int().nullable(),
  source: z.enum(['MANUAL', 'AUTO']),
  createdAt: z.string(),
});

export const exceptionLedgerList = defineList({
  name: 'ExceptionLedger',
  basePath: '/api/ledger/exception',
  menu: 'LEDGER_EXCEPTION',
  tags: ['Ledger'],
  exportPerm: 'READ',
  from: (db) =>
    db
      .selectFrom('exception_ledger as e')
      .leftJoin('agent as a', 'a.agent_id', 'e.agent_id')
      .leftJoin('exception_type_code as t', 't.exception_code', 'e.exception_code'),
  columns: [
    'e.ledger_id', 'e.agent_id', 'a.agent_name', 'e.contract_id', 'e.policy_no', 'e.settle_month', 'e.exception_code',
    't.exception_name', 'e.direction', 'e.amount', 'e.reason', 'e.status', 'e.approve_status', 'e.approver_id',
    'e.approve_date', 'e.reject_reason', 'e.recurring_yn', 'e.recurring_until', 'e.recurring_parent_id', 'e.source',
    'e.created_at',
  ],
  filters: {
    settleMonth: eq('e.settle_month', zSettleMonth),
    agentId: eq('e.agent_id', zId),
    exceptionCode: eq('e.exception_code', zCode),
    direction: eq('e.direction', z.enum(['PLUS', 'MINUS'])),
    approveStatus: eq('e.approve_status', z.enum(APPROVE_STATUSES)),
    status: eq('e.status', z.enum(['NEW', 'APPLIED', 'CANCELLED'])),
  },
  sortable: { ledgerId: 'e.ledger_id', settleMonth: 'e.settle_month', agentId: 'e.agent_id', amount: 'e.amount' },
  defaultSort: 'e.ledger_id desc',
  ownerColumns: ['e.agent_id'],
  respSchema: exceptionLedgerResp,
  toResp: (r) => ({
    ledgerId: Number(r.ledger_id),
    agentId: Number(r.agent_id),
    agentName: r.agent_name,
    contractId: r.contract_id === null ? null : Number(r.contract_id),
    policyNo: r.policy_no,
    settleMonth: r.settle_month,
    exceptionCode: r.exception_code,
    exceptionName: r.exception_name,
    direction: r.direction,
    amount: money(r.amount),
    reason: r.reason,
    status: r.status,
    approveStatus: r.approve_status,
    approverId: r.approver_id === null ? null : Number(r.approver_id),
    approveDate: isoTimestamp(r.approve_date),
    rejectReason: r.reject_reason,
    recurringYn: r.recurring_yn,
    recurringUntil: r.recurring_until,
    recurringParentId: r.recurring_parent_id === null ? null : Number(r.recurring_parent_id),
    source: r.source,
    createdAt: isoTimestamp(r.created_at)!,
  }),
  exportColumns: [
    text('Ledger ID', 'ledger_id'),
    text('Settle month', 'settle_month'),
    text('Agent ID', 'agent_id'),
    text('Agent', 'agent_name', 18),
    text('Exception code', 'exception_code', 16),
    text('Exception', 'exception_name', 22),
    text('Direction', 'direction'),
    moneyCol('Amount', 'amount'),
    text('Reason', 'reason', 30),
    text('Approve status', 'approve_status'),
    timeCol('Approved at', 'approve_date'),
    text('Reject reason', 'reject_reason', 30),
    text('Recurring', 'recurring_yn'),
    text('Recurring until', 'recurring_until'),
    text('Source', 'source'),
  ],
});

// ---- reconciliation (intake's table, shown with the ledgers) ----------------------------------

export const reconResp = z.object({
  reconId: z.number().int(),
  companyCode: z.string(),
  companyName: z.string().nullable(),
  settleMonth: z.string(),
  expectedAmount: z.string(),
  actualAmount: z.string(),
  diffAmount: z.string(),
  reconStatus: z.enum(['MATCHED', 'DIFF']),
  expectedCount: z.number().int(),
  actualCount: z.number().int(),
  runId: z.number().int().nullable(),
  resolvedBy: z.number().int().nullable(),
  resolvedAt: z.string().nullable(),
  updatedAt: z.string(),
});

/** /api/recon: menu RECEIVE_DATA READ (the intake completeness check belongs to the receive screens). */
export const reconList = defineList({
  name: 'Reconciliation',
  basePath: '/api/recon',
  menu: 'RECEIVE_DATA',
  tags: ['Reconciliation'],
  exportPerm: 'READ',
  from: (db) => db.selectFrom('reconciliation as r').leftJoin('insurance_company as ic', 'ic.company_code', 'r.company_code'),
  columns: [
    'r.recon_id', 'r.company_code', 'ic.company_name', 'r.settle_month', 'r.expected_amount', 'r.actual_amount',
    'r.diff_amount', 'r.recon_status', 'r.expected_count', 'r.actual_count', 'r.run_id', 'r.resolved_by', 'r.resolved_at',
    'r.updated_at',
  ],
  filters: {
    settleMonth: eq('r.settle_month', zSettleMonth),
    companyCode: eq('r.company_code', zCode),
    reconStatus: eq('r.recon_status', z.enum(['MATCHED', 'DIFF'])),
  },
  sortable: { reconId: 'r.recon_id', settleMonth: 'r.settle_month', companyCode: 'r.company_code', diffAmount: 'r.diff_amount' },
  defaultSort: 'r.recon_id desc',
  respSchema: reconResp,
  toResp: (r) => ({
    reconId: Number(r.recon_id),
    companyCode: r.company_code,
    companyName: r.company_name,
    settleMonth: r.settle_month,
    expectedAmount: money(r.expected_amount),
    actualAmount: money(r.actual_amount),
    diffAmount: money(r.diff_amount),
    reconStatus: r.recon_status,
    expectedCount: r.expected_count,
    actualCount: r.actual_count,
    runId: r.run_id === null ? null : Number(r.run_id),
    resolvedBy: r.resolved_by === null ? null : Number(r.resolved_by),
    resolvedAt: isoTimestamp(r.resolved_at),
    updatedAt: isoTimestamp(r.updated_at)!,
  }),
  exportColumns: [
    text('Settle month', 'settle_month'),
    text('Company', 'company_code'),
    text('Company name', 'company_name', 22),
    moneyCol('Expected', 'expected_amount'),
    moneyCol('Actual', 'actual_amount'),
    moneyCol('Difference', 'diff_amount'),
    text('Status', 'recon_status'),
    text('Expected rows', 'expected_count'),
    text('Actual rows', 'actual_count'),
  ],
});

// ---- override_settle -------------------------------------------------------------------------

export const overrideSettleResp = z.object({
  osId: z.number().int(),
  settleId: z.number().int().nullable(),
  settleMonth: z.string(),
  fromAgentId: z.number().int(),
  fromAgentName: z.string().nullable(),
  toAgentId: z.number().int(),
  toAgentName: z.string().nullable(),
  overrideRuleId: z.number().int(),
  baseAmount: z.string(),
  overridePct: z.string(),
  overrideAmount: z.string(),
  capped: z.boolean(),
  capAmount: z.string().nullable(),
  status: z.enum(LEDGER_STATUSES),
  createdAt: z.string(),
});

export const overrideSettleList = defineList({
  name: 'OverrideSettle',
  basePath: '/api/override-settles',
  menu: 'OVERRIDE_LEDGER',
  tags: ['Override'],
  exportPerm: 'READ',
  from: (db) =>
    db
      .selectFrom('override_settle as os')
      .leftJoin('agent as fa', 'fa.agent_id', 'os.from_agent_id')
      .leftJoin('agent as ta', 'ta.agent_id', 'os.to_agent_id'),
  columns: [
    'os.os_id', 'os.settle_id', 'os.settle_month', 'os.from_agent_id', 'fa.agent_name as from_agent_name', 'os.to_agent_id',
    'ta.agent_name as to_agent_name', 'os.override_rule_id', 'os.base_amount', 'os.override_pct', 'os.override_amount',
    'os.capped', sql<string | null>`os.calc_basis->>'capAmount'`.as('cap_amount'), 'os.status', 'os.created_at',
  ],
  filters: {
    settleMonth: eq('os.settle_month', zSettleMonth),
    fromAgentId: eq('os.from_agent_id', zId),
    toAgentId: eq('os.to_agent_id', zId),
    status: eq('os.status', z.enum(LEDGER_STATUSES)),
  },
  sortable: { osId: 'os.os_id', settleMonth: 'os.settle_month', overrideAmount: 'os.override_amount' },
  defaultSort: 'os.os_id',
  ownerColumns: ['os.from_agent_id', 'os.to_agent_id'],
  respSchema: overrideSettleResp,
  toResp: (r) => ({
    osId: Number(r.os_id),
    settleId: r.settle_id === null ? null : Number(r.settle_id),
    settleMonth: r.settle_month,
    fromAgentId: Number(r.from_agent_id),
    fromAgentName: r.from_agent_name,
    toAgentId: Number(r.to_agent_id),
    toAgentName: r.to_agent_name,
    overrideRuleId: Number(r.override_rule_id),
    baseAmount: money(r.base_amount),
    overridePct: rate(r.override_pct),
    overrideAmount: money(r.override_amount),
    capped: r.capped,
    capAmount: money(r.cap_amount),
    status: r.status,
    createdAt: isoTimestamp(r.created_at)!,
  }),
  exportColumns: [
    text('Override ID', 'os_id'),
    text('Settle month', 'settle_month'),
    text('From agent ID', 'from_agent_id'),
    text('From agent', 'from_agent_name', 18),
    text('To agent ID', 'to_agent_id'),
    text('To agent', 'to_agent_name', 18),
    moneyCol('Base', 'base_amount'),
    rateCol('Override (%)', 'override_pct'),
    moneyCol('Override amount', 'override_amount'),
    text('Capped', 'capped'),
    moneyCol('Cap', 'cap_amount'),
    text('Status', 'status'),
  ],
});

// ---- chargeback ------------------------------------------------------------------------------

export const chargebackResp = z.object({
  cbId: z.number().int(),
  contractId: z.number().int(),
  policyNo: z.string().nullable(),
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  settleMonth: z.string(),
  lapseMonth: z.string(),
  lapseDate: z.string().nullable(),
  lapseMonthDiff: z.number().int(),
  baseAmount: z.string(),
  cbRate: z.string(),
  cbAmount: z.string(),
  installmentSeq: z.number().int(),
  installmentTotal: z.number().int(),
  cbRuleId: z.number().int().nullable(),
  status: z.enum(['CALCULATED', 'CONFIRMED', 'CANCELLED']),
  createdAt: z.string(),
});

/** /api/chargebacks: menu RULE_CHARGEBACK READ (there is no chargeback-ledger menu). */
export const chargebackList = defineList({
  name: 'Chargeback',
  basePath: '/api/chargebacks',
  menu: 'RULE_CHARGEBACK',
  tags: ['Chargeback'],
  exportPerm: 'READ',
  from: (db) =>
    db
      .selectFrom('chargeback as c')
      .leftJoin('agent as a', 'a.agent_id', 'c.agent_id')
      .leftJoin('contract as ct', 'ct.contract_id', 'c.contract_id'),
  columns: [
    'c.cb_id', 'c.contract_id', 'ct.policy_no', 'c.agent_id', 'a.agent_name', 'c.settle_month', 'c.lapse_month', 'c.lapse_date',
    'c.lapse_month_diff', 'c.base_amount', 'c.cb_rate', 'c.cb_amount', 'c.installment_seq', 'c.installment_total',
    'c.cb_rule_id', 'c.status', 'c.created_at',
  ],
  filters: {
    settleMonth: eq('c.settle_month', zSettleMonth),
    agentId: eq('c.agent_id', zId),
    contractId: eq('c.contract_id', zId),
    lapseMonth: eq('c.lapse_month', zSettleMonth),
    status: eq('c.status', z.enum(['CALCULATED', 'CONFIRMED', 'CANCELLED'])),
  },
  sortable: { cbId: 'c.cb_id', settleMonth: 'c.settle_month', contractId: 'c.contract_id', cbAmount: 'c.cb_amount' },
  defaultSort: 'c.cb_id',
  ownerColumns: ['c.agent_id'],
  respSchema: chargebackResp,
  toResp: (r) => ({
    cbId: Number(r.cb_id),
    contractId: Number(r.contract_id),
    policyNo: r.policy_no,
    agentId: Number(r.agent_id),
    agentName: r.agent_name,
    settleMonth: r.settle_month,
    lapseMonth: r.lapse_month,
    lapseDate: isoDate(r.lapse_date),
    lapseMonthDiff: r.lapse_month_diff,
    baseAmount: money(r.base_amount),
    cbRate: rate(r.cb_rate),
    cbAmount: money(r.cb_amount),
    installmentSeq: r.installment_seq,
    installmentTotal: r.installment_total,
    cbRuleId: r.cb_rule_id === null ? null : Number(r.cb_rule_id),
    status: r.status,
    createdAt: isoTimestamp(r.created_at)!,
  }),
  exportColumns: [
    text('Chargeback ID', 'cb_id'),
    text('Due month', 'settle_month'),
    text('Contract ID', 'contract_id'),
    text('Policy no', 'policy_no', 18),
    text('Agent ID', 'agent_id'),
    text('Agent', 'agent_name', 18),
    text('Lapse month', 'lapse_month'),
    text('Months to lapse', 'lapse_month_diff'),
    moneyCol('Base', 'base_amount'),
    rateCol('Rate (%)', 'cb_rate'),
    moneyCol('Amount', 'cb_amount'),
    text('Installment', 'installment_seq'),
    text('Installments', 'installment_total'),
    text('Status', 'status'),
  ],
});

/** The read-only lists of this service; the settlement list is registered by the settle area. */
export const LEDGER_LISTS: ReadonlyArray<ListDefinition<any, any>> = [
  recruitLedgerList,
  maintainLedgerList,
  exceptionLedgerList,
  reconList,
  overrideSettleList,
  chargebackList,
];

export async function registerLedgerLists(app: ServiceApp): Promise<void> {
  for (const list of LEDGER_LISTS) registerList(app, list);
}
