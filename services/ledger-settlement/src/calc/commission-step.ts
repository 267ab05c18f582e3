import type { Chunk, StepContext, StepCounts, Trx } from '@csp/batch';
import { DomainError, type SuccessionRow } from '@csp/domain';
import { sql, type RawBuilder } from 'kysely';
import { lockedAgents } from './locked-agents.js';
import {
  computeLedgerRow,
  ledgerKey,
  staleReconcile,
  type ContractRow,
  type ExistingLedgerRow,
  type LedgerKind,
  type LedgerRow,
} from './ledger-row.js';
import {
  deleteLedgerRows,
  loadExistingLedgerRows,
  upsertLedgerRows,
  zeroLedgerRows,
  type LedgerTable,
} from './ledger-writer.js';
import type { Pricing } from './pricing.js';

/** One eligible contract as the step decided it: the commission year and the agent paid. */
export interface Eligible {
  commissionYear: number;
  agentId: number;
  succession: SuccessionRow | undefined;
}

export interface CommissionStepSpec {
  kind: LedgerKind;
  table: LedgerTable;
  /** SQL condition on contract `c` selecting the month's candidates (a prefilter; `decide` is exact). */
  candidates: (settleMonth: string) => RawBuilder<unknown>;
  /** The domain's verdict for one candidate; undefined = not eligible this month. */
  decide: (contract: ContractRow, settleMonth: string) => Eligible | undefined;
}

export const CONTRACT_CHUNK_SIZE = 4_000;

export function companyFilter(companyCode: string | undefined): RawBuilder<unknown> {
  return companyCode === undefined
    ? sql``
    : sql`AND c.product_id IN (SELECT p.product_id FROM product p
            JOIN insurance_company ic ON ic.company_id = p.company_id WHERE ic.company_code = ${companyCode})`;
}

/** min/max contract id over the month's candidates and the month's existing rows (stale rows get a chunk too). */
export async function contractIdBounds(
  ctx: StepContext,
  spec: CommissionStepSpec,
): Promise<{ min: number; max: number } | undefined> {
  const { rows } = await sql<{ min: number | null; max: number | null }>`
    SELECT min(lo) AS min, max(hi) AS max FROM (
      SELECT min(c.contract_id) AS lo, max(c.contract_id) AS hi FROM contract c
      WHERE ${spec.candidates(ctx.settleMonth)} ${companyFilter(ctx.companyCode)}
      UNION ALL
      SELECT min(contract_id), max(contract_id) FROM ${sql.table(spec.table)}
      WHERE settle_month = ${ctx.settleMonth}
        ${ctx.companyCode === undefined ? sql`` : sql`AND company_code = ${ctx.companyCode}`}
    ) b`.execute(ctx.db);
  const row = rows[0];
  if (!row || row.min === null || row.max === null) return undefined;
  return { min: Number(row.min), max: Number(row.max) };
}

async function loadContracts(
  trx: Trx,
  ctx: StepContext,
  spec: CommissionStepSpec,
  chunk: Chunk,
): Promise<ContractRow[]> {
  const { rows } = await sql<ContractRow>`
    SELECT c.contract_id, c.agent_id, c.product_id, c.policy_no, c.premium, c.pay_cycle, c.status, c.contract_date
    FROM contract c
    WHERE c.contract_id BETWEEN ${chunk.from} AND ${chunk.to}
      AND ${spec.candidates(ctx.settleMonth)} ${companyFilter(ctx.companyCode)}
    ORDER BY c.contract_id`.execute(trx);
  return rows;
}

function todayIso(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * One chunk of calcRecruit/calcMaintain: computes the rows of the range with the domain, upserts them, and
 * handles the month's stale rows of the range — all in the chunk's checkpoint transaction.
 */
export function runCommissionChunk(
  ctx: StepContext,
  chunk: Chunk,
  spec: CommissionStepSpec,
  pricing: Pricing,
): Promise<StepCounts> {
  return ctx.chunkTransaction(async (trx) => {
    const month = ctx.settleMonth;
    const [contracts, existingRows, locked] = await Promise.all([
      loadContracts(trx, ctx, spec, chunk),
      loadExistingLedgerRows(trx, spec.table, month, chunk, ctx.companyCode),
      lockedAgents(trx, month),
    ]);
    const existing = new Map<string, ExistingLedgerRow>(
      existingRows.map((r) => [ledgerKey(r.contract_id, r.commission_year), r]),
    );
    const counts = { total: 0, success: 0, error: 0, skipped: 0 };
    const seen = new Set<string>();
    const rows: LedgerRow[] = [];
    const today = todayIso();

    for (const contract of contracts) {
      let row: LedgerRow | undefined;
      try {
        const eligible = spec.decide(contract, month);
        if (!eligible) continue;
        counts.total++;
        const key = ledgerKey(contract.contract_id, eligible.commissionYear);
        seen.add(key);
        const current = existing.get(key);
        if (
          (current && (current.status !== 'CALCULATED' || locked.has(current.agent_id))) ||
          locked.has(eligible.agentId)
        ) {
          counts.skipped++;
          continue;
        }
        row = computeLedgerRow({
          kind: spec.kind,
          contract,
          commissionYear: eligible.commissionYear,
          agentId: eligible.agentId,
          succession: eligible.succession,
          pricing,
          runId: ctx.runId,
          today,
          reported: current?.reported_company_amount ?? null,
        });
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        counts.total++;
        counts.error++;
        ctx.logger.warn(
          { contractId: contract.contract_id, code: err.code, field: err.field },
          'contract refused by a domain rule',
        );
        continue;
      }
      if (!row) {
        // Rule 2: no ledger row when the agent does not exist.
        counts.skipped++;
        continue;
      }
      rows.push(row);
    }

    const written = await upsertLedgerRows(trx, spec.table, month, ctx.runId, rows);
    counts.success += written;
    counts.skipped += rows.length - written;

    // Rows of the month in this range that the rules no longer produce.
    const toDelete: { contractId: number; commissionYear: number }[] = [];
    const toZero: ReturnType<typeof staleReconcile>[] = [];
    for (const [key, row] of existing) {
      if (seen.has(key)) continue;
      counts.total++;
      if (row.status !== 'CALCULATED' || locked.has(row.agent_id)) {
        counts.skipped++;
        continue;
      }
      if (row.raw_id === null && row.reported_company_amount === null) {
        toDelete.push({ contractId: row.contract_id, commissionYear: row.commission_year });
      } else {
        toZero.push(staleReconcile(spec.kind, row, ctx.runId, pricing.config.reconThreshold));
      }
    }
    counts.success += await deleteLedgerRows(trx, spec.table, month, toDelete);
    counts.success += await zeroLedgerRows(trx, spec.table, month, ctx.runId, toZero);
    ctx.progress(contracts.length);
    return counts;
  });
}
