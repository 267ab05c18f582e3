import type { Chunk, StepContext, StepCounts, Trx } from '@csp/batch';
import { DomainError, type SuccessionRow } from '@csp/domain';
import { sql, type RawBuilder } from 'kysely';
import { chunkSizes } from './chunk-sizes.js';
import { lockedAgents } from './locked-agents.js';
import {
  computeLedgerRow,
  ledgerKey,
  staleReconcile,
  type ContractRow,
  type LedgerKind,
  type LedgerRow,
} from './ledger-row.js';
import {
  deleteLedgerRows,
  LedgerCopy,
  LedgerUpserts,
  loadExistingLedgerRows,
  zeroLedgerRows,
  type ExistingRangeRow,
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

export function companyFilter(companyCode: string | undefined): RawBuilder<unknown> {
  return companyCode === undefined
    ? sql``
    : sql`AND c.product_id IN (SELECT p.product_id FROM product p
            JOIN insurance_company ic ON ic.company_id = p.company_id WHERE ic.company_code = ${companyCode})`;
}

/**
 * Contiguous contract-id ranges covering the month's candidates and the month's existing rows (stale rows get
 * a chunk too), cut at candidate quantiles so that each chunk holds about chunkSizes().contracts candidates however
 * sparse the ids are. Deterministic for the run's data.
 */
export async function planContractChunks(ctx: StepContext, spec: CommissionStepSpec): Promise<Chunk[]> {
  const candidates = sql`SELECT c.contract_id FROM contract c
    WHERE ${spec.candidates(ctx.settleMonth)} ${companyFilter(ctx.companyCode)}`;
  const { rows } = await sql<{ n: number; lo: number | null; hi: number | null }>`
    SELECT (SELECT count(*) FROM (${candidates}) k)::int AS n, min(lo) AS lo, max(hi) AS hi FROM (
      SELECT min(contract_id) AS lo, max(contract_id) AS hi FROM (${candidates}) k
      UNION ALL
      SELECT min(contract_id), max(contract_id) FROM ${sql.table(spec.table)}
      WHERE settle_month = ${ctx.settleMonth}
        ${ctx.companyCode === undefined ? sql`` : sql`AND company_code = ${ctx.companyCode}`}
    ) b`.execute(ctx.db);
  const bounds = rows[0];
  if (!bounds || bounds.lo === null || bounds.hi === null) return [];
  const lo = Number(bounds.lo);
  const hi = Number(bounds.hi);
  const pieces = Math.max(1, Math.ceil(bounds.n / chunkSizes().contracts));
  if (pieces === 1) return [{ chunkNo: 1, from: lo, to: hi }];
  const { rows: cuts } = await sql<{ last: number }>`
    SELECT max(contract_id) AS last FROM (
      SELECT contract_id, ntile(${pieces}) OVER (ORDER BY contract_id) AS piece FROM (${candidates}) k
    ) t GROUP BY piece ORDER BY piece`.execute(ctx.db);
  const chunks: Chunk[] = [];
  let from = lo;
  for (const cut of cuts) {
    const to = chunks.length === cuts.length - 1 ? hi : Math.max(from, Number(cut.last));
    if (to < from) continue;
    chunks.push({ chunkNo: chunks.length + 1, from, to });
    from = to + 1;
  }
  if (from <= hi) chunks.push({ chunkNo: chunks.length + 1, from, to: hi });
  return chunks;
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
 * One chunk of calcRecruit/calcMaintain: computes the rows of the range with the domain, copies the new ones
 * (streamed while computing), upserts those replacing an existing row, and handles the month's stale rows of
 * the range — all in the chunk's checkpoint transaction.
 */
export function runCommissionChunk(
  ctx: StepContext,
  chunk: Chunk,
  spec: CommissionStepSpec,
  pricing: Pricing,
): Promise<StepCounts> {
  return ctx.chunkTransaction(async (trx, client) => {
    const month = ctx.settleMonth;
    // one after the other: a transaction is one connection (pg deprecates overlapping queries on a client)
    const contracts = await loadContracts(trx, ctx, spec, chunk);
    const existingRows = await loadExistingLedgerRows(trx, spec.table, month, chunk);
    const locked = await lockedAgents(trx, month);
    const existing = new Map<string, ExistingRangeRow>(
      existingRows.map((r) => [ledgerKey(r.contract_id, r.commission_year), r]),
    );
    const counts = { total: 0, success: 0, error: 0, skipped: 0 };
    const seen = new Set<string>();
    const upserts = new LedgerUpserts(trx, spec.table, month, ctx.runId);
    const copy = new LedgerCopy(client, spec.table, month, ctx.runId);
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
      if (existing.has(ledgerKey(row.contractId, row.commissionYear))) await upserts.add(row);
      else await copy.add(row);
    }

    counts.success += await copy.end();
    const upserted = await upserts.end();
    counts.success += upserted.written;
    counts.skipped += upserted.queued - upserted.written;

    // Rows of the month in this range (of the run's carrier) that the rules no longer produce.
    const toDelete: { contractId: number; commissionYear: number }[] = [];
    const toZero: ReturnType<typeof staleReconcile>[] = [];
    for (const [key, row] of existing) {
      if (seen.has(key)) continue;
      if (ctx.companyCode !== undefined && row.company_code !== ctx.companyCode) continue;
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
