import { sql } from 'kysely';
import { APPROVE_STATUSES, LEDGER_STATUSES, RECONCILE_STATUSES, archiveAware } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

const EXCEPTION_STATUSES = ['NEW', 'APPLIED', 'CANCELLED'] as const;
const CHARGEBACK_STATUSES = ['CALCULATED', 'CONFIRMED', 'CANCELLED'] as const;
const read = { create: false, update: false, delete: false, detail: false } as const;

// Field order is the export's column order; fields marked export(false) are in responses only.

/** recruit_ledger / maintain_ledger (same columns): read-only lists, AGENT users see their own rows. */
function commissionLedger(name: string, table: 'recruit_ledger' | 'maintain_ledger', path: string, menu: string) {
  return defineResource({
    name,
    path,
    table,
    alias: 'l',
    menu,
    tags: ['Ledger'],
    ...read,
    export: 'EXPORT',
    bigTable: true,
    baseQuery: (db) => archiveAware(db).selectFrom(`${table} as l`).leftJoin('agent as a', 'a.agent_id', 'l.agent_id'),
    fields: {
      ledgerId: f.id().label('Ledger ID'),
      settleMonth: f.month().nullable(false).filter().sort().label('Settle month'),
      contractId: f.ref().nullable(false).filter().sort().label('Contract ID'),
      policyNo: f.text().filter().sort().label('Policy no').export({ width: 18 }),
      agentId: f.ref().nullable(false).filter().sort(),
      agentName: f.joined('a.agent_name', 'text').label('Agent').export({ width: 18 }),
      companyCode: f.text().filter().label('Company'),
      productCode: f.text().label('Product').export({ width: 14 }),
      insuranceType: f.text().label('Insurance type'),
      commissionYear: f.int().nullable(false).label('Commission year'),
      premium: f.money().nullable(false).label('Premium'),
      payMethod: f.text().export(false),
      companyRate: f.rate().nullable(false).label('Company rate (%)'),
      companyAmount: f.money().nullable(false).sort().label('Company amount'),
      payoutRate: f.rate().nullable(false).label('Payout rate (%)'),
      agentAmount: f.money().nullable(false).sort().label('Agent amount'),
      taxAmount: f.money().nullable(false).label('Tax'),
      reportedPremium: f.money().export(false),
      reportedCompanyAmount: f.money().label('Reported company amount'),
      reconcileStatus: f.enum(RECONCILE_STATUSES).nullable(false).filter().label('Reconcile status'),
      reconcileDiff: f.money().label('Reconcile diff'),
      /** Maintain rows paid to a successor: the agent handing over (from calc_basis.succession). */
      successionFromAgentId: f
        .computed(sql`(l.calc_basis->'succession'->>'fromAgentId')::bigint`, 'int')
        .label('Succession from agent'),
      status: f.enum(LEDGER_STATUSES).nullable(false).filter().label('Status'),
      createdAt: f.createdAt().export(false),
      updatedAt: f.updatedAt().export(false),
    },
    defaultSort: 'ledgerId',
    agentScope: 'agentId',
  });
}

export const recruitLedgerResource = commissionLedger('RecruitLedger', 'recruit_ledger', '/api/ledger/recruit', 'LEDGER_RECRUIT');
export const maintainLedgerResource = commissionLedger('MaintainLedger', 'maintain_ledger', '/api/ledger/maintain', 'LEDGER_MAINTAIN');

/** exception_ledger: registered and decided by hand-written routes (exception.routes.ts). */
export const exceptionLedgerResource = defineResource({
  name: 'ExceptionLedger',
  path: '/api/ledger/exception',
  table: 'exception_ledger',
  alias: 'e',
  menu: 'LEDGER_EXCEPTION',
  tags: ['Ledger'],
  ...read,
  baseQuery: (db) =>
    archiveAware(db)
      .selectFrom('exception_ledger as e')
      .leftJoin('agent as a', 'a.agent_id', 'e.agent_id')
      .leftJoin('exception_type_code as t', 't.exception_code', 'e.exception_code'),
  fields: {
    ledgerId: f.id().label('Ledger ID'),
    settleMonth: f.month().nullable(false).filter().sort().label('Settle month'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').label('Agent').export({ width: 18 }),
    contractId: f.ref().export(false),
    policyNo: f.text().export(false),
    exceptionCode: f.text().nullable(false).filter().label('Exception code').export({ width: 16 }),
    exceptionName: f.joined('t.exception_name', 'text').label('Exception').export({ width: 22 }),
    direction: f.enum(['PLUS', 'MINUS']).nullable(false).filter().label('Direction'),
    amount: f.money().nullable(false).sort().label('Amount'),
    reason: f.text().label('Reason').export({ width: 30 }),
    status: f.enum(EXCEPTION_STATUSES).nullable(false).filter().export(false),
    approveStatus: f.enum(APPROVE_STATUSES).nullable(false).filter().label('Approve status'),
    approverId: f.ref().export(false),
    approveDate: f.timestamp().label('Approved at').export({ width: 24 }),
    rejectReason: f.text().label('Reject reason').export({ width: 30 }),
    recurringYn: f.enum(['Y', 'N']).nullable(false).label('Recurring'),
    recurringUntil: f.text().label('Recurring until'),
    recurringParentId: f.ref().export(false),
    source: f.enum(['MANUAL', 'AUTO']).nullable(false).label('Source'),
    createdAt: f.createdAt().export(false),
  },
  defaultSort: '-ledgerId',
  agentScope: 'agentId',
});

/** /api/recon: intake's completeness check per company and month (menu RECEIVE_DATA READ). */
export const reconResource = defineResource({
  name: 'Reconciliation',
  path: '/api/recon',
  table: 'reconciliation',
  alias: 'r',
  menu: 'RECEIVE_DATA',
  tags: ['Reconciliation'],
  ...read,
  baseQuery: (db) => db.selectFrom('reconciliation as r').leftJoin('insurance_company as ic', 'ic.company_code', 'r.company_code'),
  fields: {
    reconId: f.id().export(false),
    settleMonth: f.month().nullable(false).filter().sort().label('Settle month'),
    companyCode: f.text().nullable(false).filter().sort().label('Company'),
    companyName: f.joined('ic.company_name', 'text').label('Company name').export({ width: 22 }),
    expectedAmount: f.money().nullable(false).label('Expected'),
    actualAmount: f.money().nullable(false).label('Actual'),
    diffAmount: f.money().nullable(false).sort().label('Difference'),
    reconStatus: f.enum(['MATCHED', 'DIFF']).nullable(false).filter().label('Status'),
    expectedCount: f.int().nullable(false).label('Expected rows'),
    actualCount: f.int().nullable(false).label('Actual rows'),
    runId: f.ref().export(false),
    resolvedBy: f.ref().export(false),
    resolvedAt: f.timestamp().export(false),
    updatedAt: f.updatedAt().export(false),
  },
  defaultSort: '-reconId',
});

/** override_settle: one row per (from agent, to agent, month); both agents see it. */
export const overrideSettleResource = defineResource({
  name: 'OverrideSettle',
  path: '/api/override-settles',
  table: 'override_settle',
  alias: 'os',
  menu: 'OVERRIDE_LEDGER',
  tags: ['Override'],
  ...read,
  baseQuery: (db) =>
    db
      .selectFrom('override_settle as os')
      .leftJoin('agent as fa', 'fa.agent_id', 'os.from_agent_id')
      .leftJoin('agent as ta', 'ta.agent_id', 'os.to_agent_id'),
  fields: {
    osId: f.id().label('Override ID'),
    settleId: f.ref().export(false),
    settleMonth: f.month().nullable(false).filter().sort().label('Settle month'),
    fromAgentId: f.ref().nullable(false).filter().label('From agent ID'),
    fromAgentName: f.joined('fa.agent_name', 'text').label('From agent').export({ width: 18 }),
    toAgentId: f.ref().nullable(false).filter().label('To agent ID'),
    toAgentName: f.joined('ta.agent_name', 'text').label('To agent').export({ width: 18 }),
    overrideRuleId: f.ref().nullable(false).export(false),
    baseAmount: f.money().nullable(false).label('Base'),
    overridePct: f.rate().nullable(false).label('Override (%)'),
    overrideAmount: f.money().nullable(false).sort().label('Override amount'),
    capped: f.bool().label('Capped'),
    capAmount: f.computed(sql`os.calc_basis->>'capAmount'`, 'money').label('Cap'),
    status: f.enum(LEDGER_STATUSES).nullable(false).filter().label('Status'),
    createdAt: f.createdAt().export(false),
  },
  defaultSort: 'osId',
  agentScope: ['fromAgentId', 'toAgentId'],
});

/** /api/chargebacks: menu RULE_CHARGEBACK READ (there is no chargeback-ledger menu). */
export const chargebackResource = defineResource({
  name: 'Chargeback',
  path: '/api/chargebacks',
  table: 'chargeback',
  alias: 'c',
  menu: 'RULE_CHARGEBACK',
  tags: ['Chargeback'],
  ...read,
  baseQuery: (db) =>
    db
      .selectFrom('chargeback as c')
      .leftJoin('agent as a', 'a.agent_id', 'c.agent_id')
      .leftJoin('contract as ct', 'ct.contract_id', 'c.contract_id'),
  fields: {
    cbId: f.id().label('Chargeback ID'),
    settleMonth: f.month().nullable(false).filter().sort().label('환수월', 'Due month'),
    contractId: f.ref().nullable(false).filter().sort().label('Contract ID'),
    policyNo: f.joined('ct.policy_no', 'text').label('Policy no').export({ width: 18 }),
    agentId: f.ref().nullable(false).filter(),
    agentName: f.joined('a.agent_name', 'text').label('Agent').export({ width: 18 }),
    lapseMonth: f.month().nullable(false).filter().label('Lapse month'),
    lapseDate: f.date().export(false),
    lapseMonthDiff: f.int().nullable(false).label('Months to lapse'),
    baseAmount: f.money().nullable(false).label('Base'),
    cbRate: f.rate().nullable(false).label('Rate (%)'),
    cbAmount: f.money().nullable(false).sort().label('Amount'),
    installmentSeq: f.int().nullable(false).label('Installment'),
    installmentTotal: f.int().nullable(false).label('Installments'),
    cbRuleId: f.ref().export(false),
    status: f.enum(CHARGEBACK_STATUSES).nullable(false).filter().label('Status'),
    createdAt: f.createdAt().export(false),
  },
  defaultSort: 'cbId',
  agentScope: 'agentId',
});

/** The read-only lists of this service; the settlement list is registered by the settle area. */
export const LEDGER_RESOURCES = [
  recruitLedgerResource,
  maintainLedgerResource,
  exceptionLedgerResource,
  reconResource,
  overrideSettleResource,
  chargebackResource,
];
