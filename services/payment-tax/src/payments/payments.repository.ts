import { sql } from 'kysely';
import type { PaymentTaxDb } from '../db.js';

/** A payment with its agent's tax types, as rule 5 needs it. */
export interface TaxablePaymentRow {
  payment_id: number;
  agent_id: number;
  status: string;
  amount: string;
  deduction_amount: string;
  net_amount: string;
  tax_type: string;
  vat_type: string;
}

export interface PaymentTaxUpdate {
  paymentId: number;
  incomeTax: string;
  localTax: string;
  vat: string;
  net: string;
}

/** CONFIRMED settlement rows of the month with a positive gross and no live (not FAIL) payment. */
const payableSettlements = (month: string) => sql`
  s.settle_month = ${month} AND s.status = 'CONFIRMED' AND s.gross_amount > 0
  AND NOT EXISTS (SELECT 1 FROM payment p WHERE p.settle_id = s.settle_id AND p.status <> 'FAIL')`;

export class PaymentRepository {
  constructor(private readonly db: PaymentTaxDb) {}

  /** What generate would pay, with the agents' bank details (account ciphertext). */
  async payableSettlements(month: string) {
    const { rows } = await sql<{
      settle_id: number;
      agent_id: number;
      agent_name: string;
      bank_code: string | null;
      account_no: string | null;
    }>`
      SELECT s.settle_id, s.agent_id, a.agent_name, a.bank_code, a.account_no
      FROM settle_master s JOIN agent a ON a.agent_id = s.agent_id
      WHERE ${payableSettlements(month)}
      ORDER BY s.settle_id
      FOR SHARE OF s`.execute(this.db);
    return rows;
  }

  /**
   * The month at a glance: its live payments counted (taxed, with deductions, in a transfer file) and the
   * settlements generate would still pay (`unpaid`, the first `listed` of them with the agents' bank details),
   * within `agentId` when given (null: none). One read; no locks.
   */
  async monthSummary(month: string, listed: number, agentId?: number | null) {
    const own = (column: string) =>
      agentId === undefined ? sql`` : agentId === null ? sql`AND false` : sql`AND ${sql.ref(column)} = ${agentId}`;
    const { rows } = await sql<{ payments: number; taxed: number; deducted: number; transferred: number; latestAt: string | null }>`
      SELECT count(*)::int AS payments,
             to_char(max(coalesce(p.tax_calculated_at, p.created_at)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "latestAt",
             count(*) FILTER (WHERE p.tax_calculated_at IS NOT NULL)::int AS taxed,
             count(*) FILTER (WHERE p.deduction_amount <> 0)::int AS deducted,
             count(*) FILTER (WHERE p.pay_file_ref IS NOT NULL)::int AS transferred
      FROM payment p
      WHERE p.settle_month = ${month} AND p.status <> 'FAIL' ${own('p.agent_id')}`.execute(this.db);
    // The payable settlements once: the window count is taken before LIMIT, so it is the whole number.
    const { rows: unpaid } = await sql<{ settle_id: number; agent_id: number; agent_name: string; bank_code: string | null; account_no: string | null; total: number }>`
      SELECT s.settle_id, s.agent_id, a.agent_name, a.bank_code, a.account_no, count(*) OVER ()::int AS total
      FROM settle_master s JOIN agent a ON a.agent_id = s.agent_id
      WHERE ${payableSettlements(month)} ${own('s.agent_id')}
      ORDER BY s.settle_id
      LIMIT ${listed}`.execute(this.db);
    return { ...rows[0]!, unpaid: unpaid[0]?.total ?? 0, unpaidList: unpaid };
  }

  /** One PENDING payment per given settlement: amount = gross, bank details copied (already encrypted). */
  async insertPayments(month: string, settleIds: readonly number[], userId: number | null): Promise<number[]> {
    if (settleIds.length === 0) return [];
    const { rows } = await sql<{ payment_id: number }>`
      INSERT INTO payment (settle_id, agent_id, settle_month, bank_code, account_no, amount, net_amount, created_by, updated_by)
      SELECT s.settle_id, s.agent_id, s.settle_month, a.bank_code, a.account_no, s.gross_amount, s.gross_amount,
             ${userId}::bigint, ${userId}::bigint
      FROM settle_master s JOIN agent a ON a.agent_id = s.agent_id
      WHERE s.settle_id = ANY(${[...settleIds]}::bigint[]) AND ${payableSettlements(month)}
      ON CONFLICT (settle_id) WHERE status <> 'FAIL' AND settle_id IS NOT NULL DO NOTHING
      RETURNING payment_id`.execute(this.db);
    return rows.map((r) => Number(r.payment_id));
  }

  /**
   * Negative gross carry-forward: every CONFIRMED settlement of the month with gross < 0 not carried yet
   * becomes (or adds to) the PENDING CHARGEBACK_PENDING deduction of the next month, with its origin in
   * deduction_carry_forward. A next-month deduction that is no longer PENDING cannot take it: such rows are
   * returned as skipped.
   */
  async carryNegativeGross(month: string, nextMonth: string, userId: number | null) {
    const { rows } = await sql<{ settle_id: number; agent_id: number; amount: string; deduction_id: number | null }>`
      WITH neg AS (
        SELECT s.settle_id, s.agent_id, -s.gross_amount AS amount
        FROM settle_master s
        WHERE s.settle_month = ${month} AND s.status = 'CONFIRMED' AND s.gross_amount < 0
          AND NOT EXISTS (SELECT 1 FROM deduction_carry_forward c WHERE c.settle_id = s.settle_id)
        FOR SHARE OF s
      ), ded AS (
        INSERT INTO agent_deduction AS d (agent_id, settle_month, deduction_type, amount, description, created_by, updated_by)
        SELECT n.agent_id, ${nextMonth}, 'CHARGEBACK_PENDING', n.amount,
               'Negative gross of ' || ${month} || ' carried forward (settlement ' || n.settle_id || ')',
               ${userId}::bigint, ${userId}::bigint
        FROM neg n
        ON CONFLICT (agent_id, settle_month, deduction_type) DO UPDATE SET
          amount = d.amount + EXCLUDED.amount,
          description = left(coalesce(d.description || '; ', '') || EXCLUDED.description, 500),
          updated_at = now(),
          updated_by = EXCLUDED.updated_by,
          version = d.version + 1
        WHERE d.status = 'PENDING'
        RETURNING d.deduction_id, d.agent_id
      ), carried AS (
        INSERT INTO deduction_carry_forward (settle_id, agent_id, from_month, to_month, deduction_id, amount, created_by)
        SELECT n.settle_id, n.agent_id, ${month}, ${nextMonth}, ded.deduction_id, n.amount, ${userId}::bigint
        FROM neg n JOIN ded ON ded.agent_id = n.agent_id
        RETURNING settle_id, deduction_id
      )
      SELECT n.settle_id, n.agent_id, n.amount, c.deduction_id
      FROM neg n LEFT JOIN carried c ON c.settle_id = n.settle_id
      ORDER BY n.settle_id`.execute(this.db);
    return rows;
  }

  /** Payments with their agents' tax types, locked for the update. */
  async lockTaxable(where: { paymentId: number } | { settleMonth: string; status: string }): Promise<TaxablePaymentRow[]> {
    const filter =
      'paymentId' in where
        ? sql`p.payment_id = ${where.paymentId}`
        : sql`p.settle_month = ${where.settleMonth} AND p.status = ${where.status}`;
    const { rows } = await sql<TaxablePaymentRow>`
      SELECT p.payment_id, p.agent_id, p.status, p.amount, p.deduction_amount, p.net_amount, a.tax_type, a.vat_type
      FROM payment p JOIN agent a ON a.agent_id = p.agent_id
      WHERE ${filter}
      ORDER BY p.payment_id
      FOR UPDATE OF p`.execute(this.db);
    return rows;
  }

  async writeTaxes(updates: readonly PaymentTaxUpdate[], userId: number | null): Promise<number> {
    if (updates.length === 0) return 0;
    const result = await sql`
      UPDATE payment p SET
        income_tax_amount = v.income_tax, local_tax_amount = v.local_tax, vat_amount = v.vat, net_amount = v.net,
        tax_calculated_at = now(), updated_at = now(), updated_by = ${userId}::bigint, version = p.version + 1
      FROM unnest(${updates.map((u) => u.paymentId)}::bigint[], ${updates.map((u) => u.incomeTax)}::numeric[],
                  ${updates.map((u) => u.localTax)}::numeric[], ${updates.map((u) => u.vat)}::numeric[],
                  ${updates.map((u) => u.net)}::numeric[]) AS v(payment_id, income_tax, local_tax, vat, net)
      WHERE p.payment_id = v.payment_id`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** PENDING deductions of the agents and month, locked. */
  async lockPendingDeductions(settleMonth: string, agentIds: readonly number[]) {
    if (agentIds.length === 0) return [];
    return this.db
      .selectFrom('agent_deduction')
      .select(['deduction_id', 'agent_id', 'amount', 'status'])
      .where('settle_month', '=', settleMonth)
      .where('status', '=', 'PENDING')
      .where('agent_id', 'in', [...agentIds])
      .orderBy('deduction_id')
      .forUpdate()
      .execute();
  }

  /** Rule 6 writes: detail rows, deductions APPLIED, payments' deduction_amount and net. */
  async writeDeductions(
    details: ReadonlyArray<{ paymentId: number; deductionId: number; amount: string }>,
    payments: ReadonlyArray<{ paymentId: number; added: string; net: string }>,
    userId: number | null,
  ): Promise<void> {
    if (details.length === 0) return;
    await sql`
      INSERT INTO payment_deduction_detail (payment_id, deduction_id, amount, created_by)
      SELECT v.payment_id, v.deduction_id, v.amount, ${userId}::bigint
      FROM unnest(${details.map((d) => d.paymentId)}::bigint[], ${details.map((d) => d.deductionId)}::bigint[],
                  ${details.map((d) => d.amount)}::numeric[]) AS v(payment_id, deduction_id, amount)`.execute(this.db);
    await sql`
      UPDATE agent_deduction d SET status = 'APPLIED', applied_at = now(), updated_at = now(),
        updated_by = ${userId}::bigint, version = d.version + 1
      WHERE d.deduction_id = ANY(${details.map((x) => x.deductionId)}::bigint[])`.execute(this.db);
    await sql`
      UPDATE payment p SET deduction_amount = p.deduction_amount + v.added, net_amount = v.net, updated_at = now(),
        updated_by = ${userId}::bigint, version = p.version + 1
      FROM unnest(${payments.map((p) => p.paymentId)}::bigint[], ${payments.map((p) => p.added)}::numeric[],
                  ${payments.map((p) => p.net)}::numeric[]) AS v(payment_id, added, net)
      WHERE p.payment_id = v.payment_id`.execute(this.db);
  }

  lockPayment(paymentId: number) {
    return this.db.selectFrom('payment').selectAll().where('payment_id', '=', paymentId).forUpdate().executeTakeFirst();
  }
}
