import type { Trx } from '@csp/batch';
import { LOCKED_SETTLE_STATUSES } from '@csp/db';
import { sql } from 'kysely';
import type { LedgerTable } from '../transform/record-mapper.js';
import type { LedgerWrite } from '../transform/resolve-ledger-row.js';

export interface PendingLedgerWrite extends LedgerWrite {
  rawId: number;
}

/** `(…)` of the settle statuses that freeze an agent's month: carrier figures no longer land on its rows. */
export const LOCKED_SETTLE = sql`(${sql.join(LOCKED_SETTLE_STATUSES)})`;

/**
 * The one upsert rule of carrier figures on a ledger row (table aliased `t`): a CALCULATED row of an
 * unlocked month takes the reported figures and goes back to reconcile; anything else keeps its own.
 */
export const REPORTED_FIGURES_ON_CONFLICT = sql`ON CONFLICT (contract_id, settle_month, commission_year) DO UPDATE SET
      reported_premium = EXCLUDED.reported_premium,
      reported_company_amount = EXCLUDED.reported_company_amount,
      raw_id = EXCLUDED.raw_id,
      reconcile_status = 'PENDING',
      reconcile_diff = NULL,
      version = t.version + 1,
      updated_at = now()
    WHERE t.status = 'CALCULATED'
      AND NOT EXISTS (SELECT 1 FROM settle_master s
        WHERE s.agent_id = t.agent_id AND s.settle_month = t.settle_month AND s.status IN ${LOCKED_SETTLE})`;

function keyOf(w: LedgerWrite): string {
  return `${w.contractId}:${w.commissionYear}`;
}

/**
 * Writes the carrier figures onto the ledger rows (contract_id, settle_month, commission_year) of one
 * table: a missing row is inserted with the contract's descriptive fields, an existing CALCULATED row
 * gets reported_premium, reported_company_amount and raw_id replaced and reconcile_status PENDING.
 * Rows that are not CALCULATED, and rows of agents whose settle row of the month is
 * CONFIRMED/HOLD/PAID, are not touched. Several records of one key in the same call: the highest
 * raw_id is written (replace semantics, as across chunks) and the others point to the same row.
 * Returns ledger_id per raw_id written; raw ids absent from the result were left alone.
 */
export async function upsertReportedFigures(
  trx: Trx,
  table: LedgerTable,
  settleMonth: string,
  writes: readonly PendingLedgerWrite[],
): Promise<Map<number, number>> {
  const mapped = new Map<number, number>();
  if (writes.length === 0) return mapped;
  const lastByKey = new Map<string, PendingLedgerWrite>();
  for (const w of [...writes].sort((a, b) => a.rawId - b.rawId)) lastByKey.set(keyOf(w), w);
  // One JSON parameter instead of twelve arrays: JSON.stringify is native, pg's array literals are built in JS.
  const rows = JSON.stringify(
    [...lastByKey.values()].map((w) => ({
      c: w.contractId, a: w.agentId, y: w.commissionYear, pn: w.policyNo, cc: w.companyCode, pc: w.productCode,
      it: w.insuranceType, pr: w.premium, pm: w.payMethod, rp: w.reportedPremium, rc: w.reportedCompanyAmount, r: w.rawId,
    })),
  );

  const { rows: written } = await sql<{ ledger_id: number; contract_id: number; commission_year: number }>`
    INSERT INTO ${sql.table(table)} AS t (
      contract_id, agent_id, commission_year, policy_no, company_code, product_code, insurance_type, premium,
      pay_method, reported_premium, reported_company_amount, raw_id, reconcile_status, settle_month)
    SELECT u.c, u.a, u.y, u.pn, u.cc, u.pc, u.it, u.pr, u.pm, u.rp, u.rc, u.r, 'PENDING', ${settleMonth}::char(6)
    FROM json_to_recordset(${rows}::json) AS u (
      c bigint, a bigint, y int, pn text, cc text, pc text, it text, pr numeric, pm text, rp numeric, rc numeric, r bigint)
    WHERE NOT EXISTS (
      SELECT 1 FROM settle_master s
      WHERE s.agent_id = u.a AND s.settle_month = ${settleMonth} AND s.status IN ${LOCKED_SETTLE})
    ${REPORTED_FIGURES_ON_CONFLICT}
    RETURNING ledger_id, contract_id, commission_year`.execute(trx);

  const ledgerByKey = new Map(written.map((r) => [`${r.contract_id}:${r.commission_year}`, r.ledger_id]));
  for (const w of writes) {
    const ledgerId = ledgerByKey.get(keyOf(w));
    if (ledgerId !== undefined) mapped.set(w.rawId, ledgerId);
  }
  return mapped;
}
