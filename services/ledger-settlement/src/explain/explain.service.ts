import { sql, type SqlBool } from 'kysely';
import type { Db } from '@csp/db';
import {
  DEFAULT_SETTLEMENT_TAX_RATE,
  calcSettlementWithOther,
  formatMoney,
  formatRate,
  sum,
  toDec,
} from '@csp/domain';
import { isoTimestamp } from '@csp/service-kit';
import type { ExplainResp } from './explain.schemas.js';
import { expandLedgerBasis, loadRulePeriods, type LedgerBasisRow, type LedgerStep, type RulePeriods } from './ledger-basis.js';
import { loadOtherLines } from './other-lines.js';

export const EXPLAIN_FORMULA =
  'gross = recruit + maintain + override + exceptionPlus - chargeback - exceptionMinus; tax = pct(gross, TAX_RATE); net = gross - tax';
/** The formula of a month with settlement corrections (approved ones booked into it). */
export const EXPLAIN_FORMULA_WITH_CORRECTION =
  'gross = recruit + maintain + override + exceptionPlus - chargeback - exceptionMinus + correction; tax = pct(gross, TAX_RATE); net = gross - tax';
/** The formula of a month with other commission types, incentives or commission-master adjustments (other_total). */
export const EXPLAIN_FORMULA_WITH_OTHER =
  'gross = recruit + maintain + override + exceptionPlus - chargeback - exceptionMinus + other; tax = pct(gross, TAX_RATE); net = gross - tax';
export const EXPLAIN_FORMULA_WITH_CORRECTION_AND_OTHER =
  'gross = recruit + maintain + override + exceptionPlus - chargeback - exceptionMinus + correction + other; tax = pct(gross, TAX_RATE); net = gross - tax';

export interface SettleRow {
  settle_id: number;
  agent_id: number;
  agent_name: string | null;
  settle_month: string;
  status: string;
  recruit_total: string;
  maintain_total: string;
  override_total: string;
  exception_plus: string;
  exception_minus: string;
  chargeback_total: string;
  gross_amount: string;
  tax_amount: string;
  net_amount: string;
  /** V080; absent when the caller did not select it */
  correction_total?: string;
  /** V090; absent when the caller did not select it */
  other_total?: string;
  calc_basis: { taxRate?: string } | null;
}

type Json = Record<string, unknown> | null;

const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

async function taxRateOf(db: Db, settle: SettleRow): Promise<string> {
  // The rate the aggregate used is on the row; older rows fall back to the configuration.
  const fromBasis = settle.calc_basis?.taxRate;
  if (typeof fromBasis === 'string' && fromBasis.length > 0) return fromBasis;
  const config = await db
    .selectFrom('system_config')
    .select('config_value')
    .where('config_key', '=', 'TAX_RATE')
    .executeTakeFirst();
  return config?.config_value?.trim() || DEFAULT_SETTLEMENT_TAX_RATE;
}

/** The columns of a recruit or maintain ledger row an explain line is made of. */
interface CommissionRow extends LedgerBasisRow {
  ledger_id: unknown;
  contract_id: unknown;
  policy_no: string | null;
  product_code: string | null;
  company_rate: string;
  company_amount: string;
  payout_rate: string;
  agent_amount: string;
  status: string;
}

function commissionLines(rows: readonly CommissionRow[], step: LedgerStep, periods: RulePeriods) {
  return rows.map((r) => ({
    ledgerId: num(r.ledger_id),
    contractId: num(r.contract_id),
    policyNo: r.policy_no,
    productCode: r.product_code,
    commissionYear: r.commission_year,
    premium: formatMoney(r.premium),
    companyRate: formatRate(r.company_rate),
    companyAmount: formatMoney(r.company_amount),
    payoutRate: formatRate(r.payout_rate),
    agentAmount: formatMoney(r.agent_amount),
    status: r.status,
    basis: expandLedgerBasis(step, r, periods),
  }));
}

/** The columns of an exception ledger row an explain line is made of. */
interface ExceptionRow {
  ledger_id: unknown;
  exception_code: string;
  exception_name: string | null;
  direction: 'PLUS' | 'MINUS';
  amount: string;
  reason: string | null;
  status: string;
  approve_status: string;
  approve_date: Date | string | null;
  reject_reason: string | null;
  source: string;
  calc_basis: unknown;
}

function exceptionLine(r: ExceptionRow) {
  return {
    ledgerId: num(r.ledger_id),
    exceptionCode: r.exception_code,
    exceptionName: r.exception_name,
    direction: r.direction,
    amount: formatMoney(r.amount),
    reason: r.reason,
    approveStatus: r.approve_status,
    approvedAt: isoTimestamp(r.approve_date),
    source: r.source,
    basis: r.calc_basis as Json,
  };
}

function excludedBecause(r: ExceptionRow): string | undefined {
  if (r.status === 'CANCELLED') return 'cancelled';
  switch (r.approve_status) {
    case 'APPROVED':
      return undefined;
    case 'PENDING':
      return 'awaiting approval: only APPROVED exceptions count';
    case 'REJECTED':
      return r.reject_reason ? `rejected: ${r.reject_reason}` : 'rejected';
    default:
      return `approval ${String(r.approve_status).toLowerCase()}`;
  }
}

/**
 * The agent's month line by line from the stored ledger rows and their calc_basis, with totals
 * recomputed by @csp/domain (rule 4) and compared with the stored settle row.
 */
export async function explainSettlement(db: Db, settle: SettleRow): Promise<ExplainResp> {
  const agentId = settle.agent_id;
  const month = settle.settle_month;
  const ledgerColumns = [
    'l.ledger_id',
    'l.contract_id',
    'l.policy_no',
    'l.product_code',
    'l.commission_year',
    'l.premium',
    'l.company_rate',
    'l.company_amount',
    'l.payout_rate',
    'l.agent_amount',
    'l.status',
    'l.calc_basis',
    // repeated in the full basis (the stored one is compact)
    'l.run_id',
    'l.pay_method',
    'l.insurance_type',
  ] as const;

  const [recruitRows, maintainRows, overrideRows, exceptionRows, chargebackRows, taxRate, correctionRows, other] = await Promise.all(
    [
      db
        .selectFrom('recruit_ledger as l')
        .select(ledgerColumns)
        .where('l.agent_id', '=', agentId)
        .where('l.settle_month', '=', month)
        .orderBy('l.ledger_id')
        .execute(),
      db
        .selectFrom('maintain_ledger as l')
        .leftJoin('agent as fa', (j) =>
          j.on(sql<SqlBool>`fa.agent_id = (l.calc_basis->'succession'->>'fromAgentId')::bigint`),
        )
        .select([...ledgerColumns, 'fa.agent_name as from_agent_name'])
        .where('l.agent_id', '=', agentId)
        .where('l.settle_month', '=', month)
        .orderBy('l.ledger_id')
        .execute(),
      db
        .selectFrom('override_settle as os')
        .leftJoin('agent as fa', 'fa.agent_id', 'os.from_agent_id')
        .select([
          'os.os_id',
          'os.from_agent_id',
          'fa.agent_name as from_agent_name',
          'os.base_amount',
          'os.override_pct',
          'os.override_amount',
          'os.capped',
          'os.calc_basis',
        ])
        .where('os.to_agent_id', '=', agentId)
        .where('os.settle_month', '=', month)
        .orderBy('os.os_id')
        .execute(),
      db
        .selectFrom('exception_ledger as e')
        .leftJoin('exception_type_code as t', 't.exception_code', 'e.exception_code')
        .select([
          'e.ledger_id',
          'e.exception_code',
          't.exception_name',
          'e.direction',
          'e.amount',
          'e.reason',
          'e.status',
          'e.approve_status',
          'e.approve_date',
          'e.reject_reason',
          'e.source',
          'e.calc_basis',
        ])
        .where('e.agent_id', '=', agentId)
        .where('e.settle_month', '=', month)
        .orderBy('e.ledger_id')
        .execute(),
      db
        .selectFrom('chargeback as c')
        .leftJoin('contract as ct', 'ct.contract_id', 'c.contract_id')
        .select([
          'c.cb_id',
          'c.contract_id',
          'ct.policy_no',
          'c.lapse_month',
          'c.installment_seq',
          'c.installment_total',
          'c.base_amount',
          'c.cb_rate',
          'c.cb_amount',
          'c.calc_basis',
        ])
        .where('c.agent_id', '=', agentId)
        .where('c.settle_month', '=', month)
        .where('c.status', '<>', 'CANCELLED')
        .orderBy('c.cb_id')
        .execute(),
      taxRateOf(db, settle),
      db
        .selectFrom('settle_correction as k')
        .select([
          'k.correction_id',
          'k.correction_type',
          'k.original_month',
          'k.amount',
          'k.reason',
          'k.source_table',
          'k.source_id',
          'k.dispute_id',
          'k.created_by',
          'k.decided_by',
          'k.decided_at',
          'k.calc_basis',
        ])
        .where('k.agent_id', '=', agentId)
        .where('k.target_month', '=', month)
        .where('k.status', '=', 'APPROVED')
        .orderBy('k.correction_id')
        .execute(),
      loadOtherLines(db, agentId, month),
    ],
  );

  const periods = await loadRulePeriods(db, [...recruitRows, ...maintainRows]);
  const recruit = commissionLines(recruitRows, 'calcRecruit', periods);
  const maintain = commissionLines(maintainRows, 'calcMaintain', periods).map((line, i) => {
    const s = (maintainRows[i]!.calc_basis as { succession?: Record<string, unknown> | null } | null)
      ?.succession;
    return {
      ...line,
      successionFrom: s
        ? {
            successionId: numOrNull(s.successionId),
            fromAgentId: num(s.fromAgentId),
            fromAgentName: maintainRows[i]!.from_agent_name ?? null,
            effectiveMonth: (s.effectiveMonth as string | undefined) ?? null,
          }
        : null,
    };
  });
  const override = overrideRows.map((r) => {
    const b = r.calc_basis as { capAmount?: string | null } | null;
    return {
      osId: num(r.os_id),
      fromAgentId: num(r.from_agent_id),
      fromAgentName: r.from_agent_name,
      baseAmount: formatMoney(r.base_amount),
      overridePct: formatRate(r.override_pct),
      overrideAmount: formatMoney(r.override_amount),
      capped: r.capped,
      capAmount: b?.capAmount ? formatMoney(b.capAmount) : null,
      basis: r.calc_basis as Json,
    };
  });
  const counted = exceptionRows.filter((r) => excludedBecause(r) === undefined);
  const exceptionPlus = counted.filter((r) => r.direction === 'PLUS').map(exceptionLine);
  const exceptionMinus = counted.filter((r) => r.direction === 'MINUS').map(exceptionLine);
  const excluded = exceptionRows
    .filter((r) => excludedBecause(r) !== undefined)
    .map((r) => ({ ...exceptionLine(r), excludedBecause: excludedBecause(r)! }));
  const chargeback = chargebackRows.map((r) => ({
    cbId: num(r.cb_id),
    contractId: num(r.contract_id),
    policyNo: r.policy_no,
    lapseMonth: r.lapse_month,
    installmentSeq: r.installment_seq,
    installmentTotal: r.installment_total,
    baseAmount: formatMoney(r.base_amount),
    cbRate: formatRate(r.cb_rate),
    cbAmount: formatMoney(r.cb_amount),
    basis: r.calc_basis as Json,
  }));

  const correction = correctionRows.map((r) => ({
    correctionId: num(r.correction_id),
    correctionType: r.correction_type,
    originalMonth: r.original_month,
    amount: formatMoney(r.amount),
    reason: r.reason,
    sourceTable: r.source_table,
    sourceId: numOrNull(r.source_id),
    disputeId: numOrNull(r.dispute_id),
    requestedBy: numOrNull(r.created_by),
    approvedBy: numOrNull(r.decided_by),
    approvedAt: isoTimestamp(r.decided_at),
    basis: r.calc_basis as Json,
  }));
  const storedCorrection = formatMoney(settle.correction_total ?? '0');
  const withCorrection = correction.length > 0 || storedCorrection !== '0.00';
  const storedOther = formatMoney(settle.other_total ?? '0');
  const withOther = other.any || storedOther !== '0.00';

  const total = (values: string[], field: string) => sum(values.map((v) => toDec(v, field)));
  const agg = calcSettlementWithOther(
    {
      recruit: total(
        recruit.map((l) => l.agentAmount),
        'recruit',
      ),
      maintain: total(
        maintain.map((l) => l.agentAmount),
        'maintain',
      ),
      override: total(
        override.map((l) => l.overrideAmount),
        'override',
      ),
      exceptionPlus: total(
        exceptionPlus.map((l) => l.amount),
        'exceptionPlus',
      ),
      exceptionMinus: total(
        exceptionMinus.map((l) => l.amount),
        'exceptionMinus',
      ),
      chargeback: total(
        chargeback.map((l) => l.cbAmount),
        'chargeback',
      ),
      correction: total(
        correction.map((l) => l.amount),
        'correction',
      ),
      other: other.total,
    },
    taxRate,
  );

  const pairs: Array<[field: string, explained: string, stored: string]> = [
    ['recruit', formatMoney(agg.recruit), formatMoney(settle.recruit_total)],
    ['maintain', formatMoney(agg.maintain), formatMoney(settle.maintain_total)],
    ['override', formatMoney(agg.override), formatMoney(settle.override_total)],
    ['exceptionPlus', formatMoney(agg.exceptionPlus), formatMoney(settle.exception_plus)],
    ['exceptionMinus', formatMoney(agg.exceptionMinus), formatMoney(settle.exception_minus)],
    ['chargeback', formatMoney(agg.chargeback), formatMoney(settle.chargeback_total)],
    // every part of gross is a figure, zero included (DECISIONS "Settlement lifecycle")
    ['correction', formatMoney(agg.correction), storedCorrection],
    ['other', formatMoney(agg.other), storedOther],
    ['gross', formatMoney(agg.gross), formatMoney(settle.gross_amount)],
    ['tax', formatMoney(agg.tax), formatMoney(settle.tax_amount)],
    ['net', formatMoney(agg.net), formatMoney(settle.net_amount)],
  ];
  const mismatches = pairs
    .filter(([, explained, stored]) => !toDec(explained, 'explained').eq(toDec(stored, 'stored')))
    .map(([field, explained, stored]) => ({ field, explained, stored }));
  const explained = Object.fromEntries(pairs.map(([f, e]) => [f, e])) as Record<string, string>;
  const stored = Object.fromEntries(pairs.map(([f, , s]) => [f, s])) as Record<string, string>;

  return {
    settleId: num(settle.settle_id),
    agentId: num(agentId),
    agentName: settle.agent_name,
    settleMonth: month,
    status: settle.status,
    sections: { recruit, maintain, override, exceptionPlus, exceptionMinus, chargeback, excluded, correction, ...other.sections },
    totals: {
      recruit: explained.recruit!,
      maintain: explained.maintain!,
      override: explained.override!,
      exceptionPlus: explained.exceptionPlus!,
      exceptionMinus: explained.exceptionMinus!,
      chargeback: explained.chargeback!,
      gross: explained.gross!,
      taxRate: formatRate(taxRate),
      tax: explained.tax!,
      net: explained.net!,
      correction: explained.correction!,
      other: explained.other!,
    },
    stored: {
      recruit: stored.recruit!,
      maintain: stored.maintain!,
      override: stored.override!,
      exceptionPlus: stored.exceptionPlus!,
      exceptionMinus: stored.exceptionMinus!,
      chargeback: stored.chargeback!,
      gross: stored.gross!,
      tax: stored.tax!,
      net: stored.net!,
      correction: stored.correction!,
      other: stored.other!,
    },
    formula: withOther
      ? withCorrection
        ? EXPLAIN_FORMULA_WITH_CORRECTION_AND_OTHER
        : EXPLAIN_FORMULA_WITH_OTHER
      : withCorrection
        ? EXPLAIN_FORMULA_WITH_CORRECTION
        : EXPLAIN_FORMULA,
    reconciles: mismatches.length === 0,
    mismatches,
  };
}
