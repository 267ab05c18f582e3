import { formatSettleMonth, parseSettleMonth } from '@csp/domain';
import type { Lang } from '@csp/service-kit';
import { sql, type RawBuilder } from 'kysely';
import type { PaymentTaxDb } from '../db.js';
import { COMMISSION_TYPE_NAMES_EN, EXCEPTION_TYPE_NAMES_EN, monthText, statementWords, type StatementWords } from './statement-words.js';

export const STATEMENT_TYPES = ['MONTHLY', 'ANNUAL', 'PROOF'] as const;
export type StatementTypeValue = (typeof STATEMENT_TYPES)[number];

/** The payments a statement covers: the month (MONTHLY, PROOF) or the year up to the month (ANNUAL). */
export interface StatementScope {
  settleMonth: string;
  statementType: StatementTypeValue;
}

export function monthsOf(scope: StatementScope): { from: string; to: string } {
  if (scope.statementType !== 'ANNUAL') return { from: scope.settleMonth, to: scope.settleMonth };
  const { year } = parseSettleMonth(scope.settleMonth);
  return { from: formatSettleMonth({ year, month: 1 }), to: scope.settleMonth };
}

export interface StatementFigures {
  agentId: number;
  agentName: string;
  gross: string;
  incomeTax: string;
  localTax: string;
  vat: string;
  deduction: string;
  net: string;
  paymentCount: number;
  /** The parts of gross over the paid settlement rows (they add up to gross). */
  parts: GrossParts;
  /** Gross minus the explained lines (settlement corrections): shown as its own line when not 0. */
  adjustment: string;
  /** Gross minus the parts (payments without a settlement row): shown as its own part when not 0. */
  unsettled: string;
}

/**
 * The parts of gross (DECISIONS "Settlement lifecycle"), signed as stored: minus and chargeback count negatively.
 * The same columns on settle_master and commission_statement: the one list the statement reads and writes.
 */
export const GROSS_PART_COLUMNS = [
  'recruit_total',
  'maintain_total',
  'override_total',
  'other_total',
  'correction_total',
  'exception_plus',
  'exception_minus',
  'chargeback_total',
] as const;
export type GrossPartColumn = (typeof GROSS_PART_COLUMNS)[number];
export type GrossParts = Record<GrossPartColumn, string>;

export interface StatementLine {
  section: string;
  item: string;
  reference: string;
  amount: string | null;
}

export interface StatementData {
  scope: StatementScope;
  /** The words of the statement's language (decided at issue time, stored as commission_statement.lang). */
  words: StatementWords;
  figures: StatementFigures;
  lines: StatementLine[];
  deductions: StatementLine[];
}

/** A money value in a line text: #,##0.00 (to_char on numeric, exact). */
const moneyText = (value: RawBuilder<unknown>) => sql`to_char(${value}, 'FM9,999,999,999,999,990.00')`;
/** A rate in a line text without trailing zeros: 3.3, 50. */
const rateText = (value: RawBuilder<unknown>) => sql`trim_scale(${value})::text`;
/** A settle month YYYYMM in a line text as YYYY-MM. */
const monthSql = (value: RawBuilder<unknown>) => sql`substr(${value}, 1, 4) || '-' || substr(${value}, 5, 2)`;
const col = (ref: string) => sql.ref(ref) as RawBuilder<unknown>;

/**
 * The name of a type in the statement's language: an English statement takes the English name of a seeded
 * code from the word table; otherwise (a Korean statement, a type the operator added) the type's own name.
 */
function typeName(names: Readonly<Record<string, string>>, w: StatementWords, code: string, name: string) {
  const entries = w.lang === 'en' ? Object.entries(names) : [];
  return sql<string>`coalesce((SELECT n.name FROM unnest(${entries.map(([c]) => c)}::text[], ${entries.map(([, n]) => n)}::text[]) AS n(code, name)
                               WHERE n.code = ${col(code)}), ${col(name)})`;
}

/**
 * The lines that make up each agent's gross, read from the tables behind ledger-settlement's explain
 * (recruit and maintain ledgers, override_settle, approved exceptions, chargebacks due, and the other
 * commission types counted in gross: one line per other_commission_ledger row and approved incentive,
 * sectioned by the type's name in its sort order, then commission-master adjustments) with the same
 * selection; amounts signed as they count in gross. Every word comes from `w` (format() templates).
 */
function monthlyLines(month: string, agentIds: number[], w: StatementWords) {
  const ledgerLine = sql`format(${w.ledgerLine}::text, l.commission_year, ${moneyText(col('l.premium'))}, ${rateText(col('l.company_rate'))}, ${rateText(col('l.payout_rate'))})`;
  const commissionType = typeName(COMMISSION_TYPE_NAMES_EN, w, 't.type_code', 't.type_name');
  return sql<{ agent_id: number; section: string; item: string; reference: string; amount: string }>`
    SELECT x.agent_id, x.section, x.item, x.reference, x.amount FROM (
      SELECT l.agent_id, 1 AS ord, l.ledger_id AS line_id, ${w.recruit}::text AS section,
             concat_ws(' ', l.policy_no, l.product_code) AS item, ${ledgerLine} AS reference, l.agent_amount AS amount
      FROM recruit_ledger l WHERE l.settle_month = ${month} AND l.agent_id = ANY(${agentIds}::bigint[])
      UNION ALL
      SELECT l.agent_id, 2, l.ledger_id, ${w.maintain}::text, concat_ws(' ', l.policy_no, l.product_code), ${ledgerLine}, l.agent_amount
      FROM maintain_ledger l WHERE l.settle_month = ${month} AND l.agent_id = ANY(${agentIds}::bigint[])
      UNION ALL
      SELECT os.to_agent_id, 3, os.os_id, ${w.override}::text,
             format(${w.overrideFrom}::text, coalesce(fa.agent_name, format(${w.agentNo}::text, os.from_agent_id))),
             format(CASE WHEN os.capped THEN ${w.overrideCapped}::text ELSE ${w.overrideLine}::text END,
                    ${moneyText(col('os.base_amount'))}, ${rateText(col('os.override_pct'))}),
             os.override_amount
      FROM override_settle os LEFT JOIN agent fa ON fa.agent_id = os.from_agent_id
      WHERE os.settle_month = ${month} AND os.to_agent_id = ANY(${agentIds}::bigint[])
      UNION ALL
      SELECT e.agent_id, 4, e.ledger_id, ${w.exception}::text,
             ${typeName(EXCEPTION_TYPE_NAMES_EN, w, 'e.exception_code', 't.exception_name')},
             coalesce(e.reason, ''), CASE WHEN e.direction = 'MINUS' THEN -e.amount ELSE e.amount END
      FROM exception_ledger e LEFT JOIN exception_type_code t ON t.exception_code = e.exception_code
      WHERE e.settle_month = ${month} AND e.agent_id = ANY(${agentIds}::bigint[])
        AND e.approve_status = 'APPROVED' AND e.status <> 'CANCELLED'
      UNION ALL
      SELECT c.agent_id, 5, c.cb_id, ${w.chargeback}::text, coalesce(ct.policy_no, format(${w.contractNo}::text, c.contract_id)),
             format(${w.chargebackLine}::text, ${monthSql(col('c.lapse_month'))}, c.installment_seq, c.installment_total),
             -c.cb_amount
      FROM chargeback c LEFT JOIN contract ct ON ct.contract_id = c.contract_id
      WHERE c.settle_month = ${month} AND c.agent_id = ANY(${agentIds}::bigint[]) AND c.status <> 'CANCELLED'
      UNION ALL
      SELECT o.agent_id, 5 + t.sort_order, o.ledger_id, ${commissionType},
             coalesce(concat_ws(' ', o.policy_no, o.product_code), ''),
             CASE o.commission_type
               WHEN 'APPOINTMENT' THEN format(${w.appointmentLine}::text, o.milestone_month)
               WHEN 'PERSISTENCY' THEN format(${w.persistencyLine}::text, o.milestone_month, ${moneyText(col('o.base_amount'))}, ${rateText(col('o.rate_pct'))})
               ELSE format(${w.otherLine}::text, o.commission_year, ${moneyText(col('o.base_amount'))}, ${rateText(col('o.rate_pct'))})
             END,
             o.agent_amount
      FROM other_commission_ledger o
      JOIN commission_type t ON t.type_code = o.commission_type AND t.is_active AND t.gross_yn = 'Y'
      WHERE o.settle_month = ${month} AND o.agent_id = ANY(${agentIds}::bigint[])
      UNION ALL
      SELECT r.agent_id, 5 + t.sort_order, r.result_id, ${commissionType}, coalesce(ip.program_name, format(${w.programNo}::text, r.program_id)),
             format(${w.incentiveLine}::text,
                    CASE WHEN ip.metric = 'RECRUIT_COUNT' THEN ${rateText(col('r.measured_value'))} ELSE ${moneyText(col('r.measured_value'))} END,
                    r.tier_no),
             r.amount
      FROM incentive_result r
      JOIN commission_type t ON t.type_code = 'INCENTIVE' AND t.is_active AND t.gross_yn = 'Y'
      LEFT JOIN incentive_program ip ON ip.program_id = r.program_id
      WHERE r.settle_month = ${month} AND r.status = 'APPROVED' AND r.agent_id = ANY(${agentIds}::bigint[])
      UNION ALL
      SELECT cm.agent_id, 1000, cm.cm_id, ${w.commissionAdjustment}::text, ${commissionType}, coalesce(cm.adjust_reason, ''), cm.adjustment_amount
      FROM commission_master cm
      JOIN commission_type t ON t.type_code = cm.commission_type AND t.is_active AND t.gross_yn = 'Y'
      WHERE cm.settle_month = ${month} AND cm.adjustment_amount <> 0 AND cm.agent_id = ANY(${agentIds}::bigint[])
    ) x
    ORDER BY x.agent_id, x.ord, x.line_id`;
}

/** Per agent and month of the year: the gross paid (ANNUAL statements). */
function annualLines(from: string, to: string, agentIds: number[], w: StatementWords) {
  return sql<{ agent_id: number; section: string; item: string; reference: string; amount: string }>`
    SELECT p.agent_id, ${w.month}::text AS section, ${monthSql(col('p.settle_month'))} AS item,
           format(${w.paymentCount}::text, count(*)) AS reference, sum(p.amount) AS amount
    FROM payment p
    WHERE p.settle_month BETWEEN ${from} AND ${to} AND p.status <> 'FAIL' AND p.agent_id = ANY(${agentIds}::bigint[])
    GROUP BY p.agent_id, p.settle_month
    ORDER BY p.agent_id, p.settle_month`;
}

export class StatementRepository {
  constructor(private readonly db: PaymentTaxDb) {}

  /** Agents with payments (status not FAIL) in the scope, ascending. */
  async agentsWithPayments(scope: StatementScope): Promise<number[]> {
    const { from, to } = monthsOf(scope);
    const { rows } = await sql<{ agent_id: number }>`
      SELECT DISTINCT p.agent_id FROM payment p
      WHERE p.settle_month BETWEEN ${from} AND ${to} AND p.status <> 'FAIL'
      ORDER BY p.agent_id`.execute(this.db);
    return rows.map((r) => Number(r.agent_id));
  }

  /** Figures, lines and deductions of the agents' statements in `lang` (agents without payments are absent). */
  async load(scope: StatementScope, agentIds: number[], lang: Lang): Promise<Map<number, StatementData>> {
    const { from, to } = monthsOf(scope);
    const words = statementWords(lang);
    const monthly = scope.statementType !== 'ANNUAL';
    const lineSum = monthly
      ? sql`(SELECT coalesce(sum(l.agent_amount), 0) FROM recruit_ledger l WHERE l.settle_month = ${from} AND l.agent_id = f.agent_id)
          + (SELECT coalesce(sum(l.agent_amount), 0) FROM maintain_ledger l WHERE l.settle_month = ${from} AND l.agent_id = f.agent_id)
          + (SELECT coalesce(sum(os.override_amount), 0) FROM override_settle os WHERE os.settle_month = ${from} AND os.to_agent_id = f.agent_id)
          + (SELECT coalesce(sum(CASE WHEN e.direction = 'MINUS' THEN -e.amount ELSE e.amount END), 0) FROM exception_ledger e
              WHERE e.settle_month = ${from} AND e.agent_id = f.agent_id AND e.approve_status = 'APPROVED' AND e.status <> 'CANCELLED')
          - (SELECT coalesce(sum(c.cb_amount), 0) FROM chargeback c WHERE c.settle_month = ${from} AND c.agent_id = f.agent_id AND c.status <> 'CANCELLED')
          + (SELECT coalesce(sum(o.agent_amount), 0) FROM other_commission_ledger o
              JOIN commission_type t ON t.type_code = o.commission_type AND t.is_active AND t.gross_yn = 'Y'
              WHERE o.settle_month = ${from} AND o.agent_id = f.agent_id)
          + (SELECT coalesce(sum(r.amount), 0) FROM incentive_result r
              JOIN commission_type t ON t.type_code = 'INCENTIVE' AND t.is_active AND t.gross_yn = 'Y'
              WHERE r.settle_month = ${from} AND r.agent_id = f.agent_id AND r.status = 'APPROVED')
          + (SELECT coalesce(sum(cm.adjustment_amount), 0) FROM commission_master cm
              JOIN commission_type t ON t.type_code = cm.commission_type AND t.is_active AND t.gross_yn = 'Y'
              WHERE cm.settle_month = ${from} AND cm.agent_id = f.agent_id)`
      : sql`f.gross`;
    const { rows: figures } = await sql<{
      agent_id: number;
      agent_name: string;
      gross: string;
      income_tax: string;
      local_tax: string;
      vat: string;
      deduction: string;
      net: string;
      payment_count: number;
      adjustment: string;
      unsettled: string;
    } & GrossParts>`
      WITH f AS (
        SELECT p.agent_id, sum(p.amount) AS gross, sum(p.income_tax_amount) AS income_tax, sum(p.local_tax_amount) AS local_tax,
               sum(p.vat_amount) AS vat, sum(p.deduction_amount) AS deduction, sum(p.net_amount) AS net, count(*)::int AS payment_count,
               ${sql.join(GROSS_PART_COLUMNS.map((c) => sql`coalesce(sum(${sql.ref(`s.${c}`)}), 0) AS ${sql.ref(c)}`))}
        FROM payment p LEFT JOIN settle_master s ON s.settle_id = p.settle_id
        WHERE p.settle_month BETWEEN ${from} AND ${to} AND p.status <> 'FAIL' AND p.agent_id = ANY(${agentIds}::bigint[])
        GROUP BY p.agent_id
      )
      SELECT f.*, a.agent_name, f.gross - (${lineSum}) AS adjustment,
             f.gross - (f.recruit_total + f.maintain_total + f.override_total + f.other_total + f.correction_total
                        + f.exception_plus - f.exception_minus - f.chargeback_total) AS unsettled
      FROM f JOIN agent a ON a.agent_id = f.agent_id`.execute(this.db);
    const { rows: lines } = await (monthly ? monthlyLines(from, agentIds, words) : annualLines(from, to, agentIds, words)).execute(this.db);
    const { rows: deductions } = await sql<{ agent_id: number; type_name: string; description: string | null; amount: string; settle_month: string }>`
      SELECT p.agent_id, coalesce(${lang === 'en' ? sql`cc.code_name_en, ` : sql``}cc.code_name, d.deduction_type) AS type_name,
             d.description, x.amount, p.settle_month
      FROM payment_deduction_detail x
      JOIN payment p ON p.payment_id = x.payment_id
      JOIN agent_deduction d ON d.deduction_id = x.deduction_id
      LEFT JOIN common_code cc ON cc.group_code = 'DEDUCTION_TYPE' AND cc.code = d.deduction_type
      WHERE p.settle_month BETWEEN ${from} AND ${to} AND p.status <> 'FAIL' AND p.agent_id = ANY(${agentIds}::bigint[])
      ORDER BY p.agent_id, x.detail_id`.execute(this.db);

    const data = new Map<number, StatementData>();
    for (const f of figures) {
      data.set(Number(f.agent_id), {
        scope,
        words,
        figures: {
          agentId: Number(f.agent_id),
          agentName: f.agent_name,
          gross: f.gross,
          incomeTax: f.income_tax,
          localTax: f.local_tax,
          vat: f.vat,
          deduction: f.deduction,
          net: f.net,
          paymentCount: f.payment_count,
          parts: Object.fromEntries(GROSS_PART_COLUMNS.map((c) => [c, f[c]])) as GrossParts,
          adjustment: f.adjustment,
          unsettled: f.unsettled,
        },
        lines: [],
        deductions: [],
      });
    }
    for (const l of lines) {
      data.get(Number(l.agent_id))?.lines.push({ section: l.section, item: l.item, reference: l.reference, amount: l.amount });
    }
    for (const d of deductions) {
      data.get(Number(d.agent_id))?.deductions.push({
        section: words.deduction,
        item: d.type_name,
        reference: monthly ? (d.description ?? '') : `${monthText(d.settle_month)} ${d.description ?? ''}`.trim(),
        amount: d.amount,
      });
    }
    return data;
  }
}
