import type { Db } from '@csp/db';
import { AppError, notFound } from '@csp/service-kit';
import { intakeDb } from '../db.js';
import { isCellTextMessage } from '../parsing/cell-text.js';
import { transformChunk } from '../steps/transform-data.js';
import { refreshReconciliation } from './receive-process.service.js';

export interface ResolveInput {
  status: 'RESOLVED' | 'IGNORED';
  note?: string | null | undefined;
  userId: number | null;
}

export interface ResolveResult {
  errorId: number;
  rawId: number;
  resolveStatus: 'RESOLVED' | 'IGNORED';
  parseStatus: 'OK' | 'ERROR';
  mappedTable: string | null;
  mappedLedgerId: number | null;
}

/**
 * Resolves an OPEN parse error (spec 3.2). IGNORED closes it; the raw row stays ERROR. RESOLVED
 * re-parses the raw row with the mappings of now (after a mapping or contract fix), through the
 * step's own chunk code, in one transaction: when the row maps, the error is RESOLVED and the row
 * OK with its ledger row; when it still fails, nothing changes and the new reason is returned
 * (E400). The carrier's reconciliation of the month is refreshed after a successful re-parse.
 */
export async function resolveParseError(
  db: Db,
  errorId: number,
  input: ResolveInput,
): Promise<{ result: ResolveResult; before: unknown; after: unknown }> {
  const outcome = await db.transaction().execute(async (trx) => {
    const tx = intakeDb(trx);
    const error = await tx
      .selectFrom('parse_error_log')
      .selectAll()
      .where('error_id', '=', errorId)
      .forUpdate()
      .executeTakeFirst();
    if (!error) throw notFound(`Parse error ${errorId}`);
    if (error.resolve_status !== 'OPEN')
      throw new AppError('BAD_REQUEST', `parse error ${errorId} is already ${error.resolve_status}`);
    if (input.status === 'RESOLVED' && error.error_type === 'INVALID_INPUT' && isCellTextMessage(error.error_message)) {
      throw new AppError(
        'BAD_REQUEST',
        `parse error ${errorId}: the file's cell ${error.error_field ?? ''} held characters that are not text; correct the file and upload it again (replace=true), or ignore the error`,
      );
    }
    const closed = await tx
      .updateTable('parse_error_log')
      .set({
        resolve_status: input.status,
        resolved_by: input.userId,
        resolve_note: input.note ?? null,
        resolved_at: new Date(),
        updated_at: new Date(),
      })
      .where('error_id', '=', errorId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const raw = await tx
      .selectFrom('raw_commission_data')
      .select(['raw_id', 'parse_status', 'settle_month', 'company_code', 'mapped_table', 'mapped_ledger_id'])
      .where('raw_id', '=', error.raw_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (input.status === 'IGNORED' || raw.parse_status === 'OK') {
      return { error, closed, raw, reparsed: false };
    }
    await tx
      .updateTable('raw_commission_data')
      .set({ parse_status: 'PENDING', updated_at: new Date() })
      .where('raw_id', '=', raw.raw_id)
      .execute();
    await transformChunk(
      { settleMonth: raw.settle_month, companyCode: raw.company_code, progress: () => undefined },
      trx,
      {
        from: raw.raw_id,
        to: raw.raw_id,
      },
    );
    const after = await tx
      .selectFrom('raw_commission_data')
      .select(['raw_id', 'parse_status', 'settle_month', 'company_code', 'mapped_table', 'mapped_ledger_id'])
      .where('raw_id', '=', raw.raw_id)
      .executeTakeFirstOrThrow();
    if (after.parse_status === 'PENDING') {
      throw new AppError(
        'ALREADY_CONFIRMED',
        `raw row ${raw.raw_id} maps to a ledger row of a confirmed settlement; it stays as it is`,
      );
    }
    if (after.parse_status === 'ERROR') {
      const again = await tx
        .selectFrom('parse_error_log')
        .select(['error_type', 'error_field', 'error_value', 'error_message'])
        .where('raw_id', '=', raw.raw_id)
        .where('resolve_status', '=', 'OPEN')
        .executeTakeFirst();
      throw new AppError(
        'BAD_REQUEST',
        `raw row ${raw.raw_id} still fails: ${again?.error_type ?? 'ERROR'}: ${again?.error_message ?? ''}`,
        {
          errorType: again?.error_type ?? null,
          errorField: again?.error_field ?? null,
          errorValue: again?.error_value ?? null,
        },
      );
    }
    return { error, closed, raw: after, reparsed: true };
  });
  if (outcome.reparsed) await refreshReconciliation(db, outcome.raw.company_code, outcome.raw.settle_month);
  return {
    before: outcome.error,
    after: outcome.closed,
    result: {
      errorId,
      rawId: outcome.raw.raw_id,
      resolveStatus: input.status,
      parseStatus: outcome.raw.parse_status === 'OK' ? 'OK' : 'ERROR',
      mappedTable: outcome.raw.mapped_table,
      mappedLedgerId: outcome.raw.mapped_ledger_id,
    },
  };
}
