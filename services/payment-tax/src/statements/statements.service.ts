import type { FastifyBaseLogger } from 'fastify';
import { AppError, XLSX_CONTENT_TYPE, notFound, type Lang } from '@csp/service-kit';
import { sql } from 'kysely';
import { todayInKorea } from '../calc/business-day.js';
import { chunksOf, forEachLimit } from '../common/concurrency.js';
import type { FileStore, StoredFile } from '../common/file-store.js';
import type { PaymentTaxDb } from '../db.js';
import { writeStatementFile } from './statement-sheet.js';
import { GROSS_PART_COLUMNS, StatementRepository, type StatementData, type StatementScope } from './statements.repository.js';

/** Agents per chunk of generate-for-month: one load, one transaction and one progress update each. */
const CHUNK_AGENTS = 250;
/** Statement files written at the same time. */
const FILE_CONCURRENCY = 4;
/** A RUNNING run whose heartbeat is older than this is taken as dead (its process stopped). */
const STALE_RUN = '2 minutes';

export interface IssuedStatement {
  statementId: number;
  agentId: number;
  fileId: number;
}

interface WrittenFile {
  agentId: number;
  fileName: string;
  stored: StoredFile;
}

/**
 * Statement issue (spec 3.2 commission_statement): a spreadsheet per agent written with the kit's
 * writer and stored as a file_storage row; the row of the key (agent, month, type) is inserted or
 * updated (re-issue) with the snapshot figures of the agent's payments. generate-for-month runs in the
 * background in chunks, with its progress in statement_run.
 */
export class StatementService {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: PaymentTaxDb,
    private readonly store: FileStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Issues the statements of the agents (those with payments in the scope) in `lang`, in one transaction. */
  async issue(scope: StatementScope, agentIds: number[], userId: number | null, lang: Lang): Promise<IssuedStatement[]> {
    return this.save(scope, await new StatementRepository(this.db).load(scope, agentIds, lang), userId, lang);
  }

  /**
   * Writes the statements' files, then their file_storage rows and statement rows in one transaction. The
   * language is stored with each statement: a download serves the file written in it, whoever asks.
   */
  private async save(scope: StatementScope, data: Map<number, StatementData>, userId: number | null, lang: Lang): Promise<IssuedStatement[]> {
    if (data.size === 0) return [];
    const issuedOn = todayInKorea();
    const written: WrittenFile[] = [];
    try {
      await forEachLimit([...data.values()], FILE_CONCURRENCY, async (d) => {
        const agentId = d.figures.agentId;
        const fileName = `statement-${scope.statementType.toLowerCase()}-${scope.settleMonth}-${agentId}.xlsx`;
        written.push({ agentId, fileName, stored: await writeStatementFile(this.store, fileName, d, issuedOn) });
      });
      const { issued, oldFiles } = await this.db.transaction().execute(async (trx) => {
        const ids = written.map((w) => w.agentId);
        const { rows: old } = await sql<{ file_id: number; file_path: string }>`
          SELECT f.file_id, f.file_path FROM commission_statement cs JOIN file_storage f ON f.file_id = cs.file_id
          WHERE cs.agent_id = ANY(${ids}::bigint[]) AND cs.settle_month = ${scope.settleMonth} AND cs.statement_type = ${scope.statementType}
          FOR UPDATE OF cs`.execute(trx);
        const { rows: files } = await sql<{ file_id: number; stored_name: string }>`
          INSERT INTO file_storage (group_id, original_name, stored_name, file_path, file_size, content_type, created_by)
          SELECT ${`STATEMENT-${scope.settleMonth}`}, v.original_name, v.stored_name, v.file_path, v.file_size, ${XLSX_CONTENT_TYPE}, ${userId}::bigint
          FROM unnest(${written.map((w) => w.fileName)}::text[], ${written.map((w) => w.stored.storedName)}::text[],
                      ${written.map((w) => w.stored.filePath)}::text[], ${written.map((w) => w.stored.size)}::bigint[])
               AS v(original_name, stored_name, file_path, file_size)
          RETURNING file_id, stored_name`.execute(trx);
        const fileOf = new Map(files.map((r) => [r.stored_name, Number(r.file_id)]));
        const rows = written.map((w) => ({ w, f: data.get(w.agentId)!.figures, fileId: fileOf.get(w.stored.storedName)! }));
        const parts = sql.join(GROSS_PART_COLUMNS.map((c) => sql.ref(c)));
        const { rows: upserted } = await sql<{ statement_id: number; agent_id: number; file_id: number }>`
          INSERT INTO commission_statement AS cs (
            agent_id, settle_month, statement_type, gross_amount, income_tax_amount, local_tax_amount, vat_amount,
            deduction_amount, net_amount, file_id, file_format, issue_status, issued_at, issued_by, lang, ${parts})
          SELECT v.agent_id, ${scope.settleMonth}, ${scope.statementType}, v.gross, v.income_tax, v.local_tax, v.vat,
                 v.deduction, v.net, v.file_id, 'XLSX', 'GENERATED', now(), ${userId}::bigint, ${lang},
                 ${sql.join(GROSS_PART_COLUMNS.map((c) => sql.ref(`v.${c}`)))}
          FROM unnest(${rows.map((r) => r.w.agentId)}::bigint[], ${rows.map((r) => r.f.gross)}::numeric[],
                      ${rows.map((r) => r.f.incomeTax)}::numeric[], ${rows.map((r) => r.f.localTax)}::numeric[],
                      ${rows.map((r) => r.f.vat)}::numeric[], ${rows.map((r) => r.f.deduction)}::numeric[],
                      ${rows.map((r) => r.f.net)}::numeric[], ${rows.map((r) => r.fileId)}::bigint[],
                      ${sql.join(GROSS_PART_COLUMNS.map((c) => sql`${rows.map((r) => r.f.parts[c])}::numeric[]`))})
               AS v(agent_id, gross, income_tax, local_tax, vat, deduction, net, file_id, ${parts})
          ON CONFLICT (agent_id, settle_month, statement_type) DO UPDATE SET
            gross_amount = EXCLUDED.gross_amount, income_tax_amount = EXCLUDED.income_tax_amount,
            local_tax_amount = EXCLUDED.local_tax_amount, vat_amount = EXCLUDED.vat_amount,
            deduction_amount = EXCLUDED.deduction_amount, net_amount = EXCLUDED.net_amount, file_id = EXCLUDED.file_id,
            ${sql.join(GROSS_PART_COLUMNS.map((c) => sql`${sql.ref(c)} = EXCLUDED.${sql.ref(c)}`))},
            file_format = EXCLUDED.file_format, issue_status = 'GENERATED', issued_at = EXCLUDED.issued_at,
            issued_by = EXCLUDED.issued_by, lang = EXCLUDED.lang, updated_at = now(), version = cs.version + 1
          RETURNING cs.statement_id, cs.agent_id, cs.file_id`.execute(trx);
        if (old.length > 0) {
          await trx.updateTable('file_storage').set({ is_deleted: true }).where('file_id', 'in', old.map((o) => o.file_id)).execute();
        }
        return {
          issued: upserted.map((u) => ({ statementId: Number(u.statement_id), agentId: Number(u.agent_id), fileId: Number(u.file_id) })),
          oldFiles: old.map((o) => o.file_path),
        };
      });
      // Replaced files are logically deleted with their rows; their bytes go once the new ones are committed.
      await Promise.all(oldFiles.map((p) => this.store.remove(p).catch(() => undefined)));
      return issued;
    } catch (err) {
      await Promise.all(written.map((w) => this.store.remove(w.stored.filePath).catch(() => undefined)));
      throw err;
    }
  }

  /** POST /api/statements/generate: one statement (re-issue updates the same key). */
  async generateOne(scope: StatementScope, agentId: number, userId: number | null, lang: Lang): Promise<IssuedStatement> {
    const agent = await this.db.selectFrom('agent').select('agent_id').where('agent_id', '=', agentId).executeTakeFirst();
    if (!agent) throw notFound(`Agent ${agentId}`);
    const [issued] = await this.issue(scope, [agentId], userId, lang);
    if (!issued) {
      const period = scope.statementType === 'ANNUAL' ? `${scope.settleMonth.slice(0, 4)} up to ${scope.settleMonth}` : scope.settleMonth;
      throw new AppError('BAD_REQUEST', `Agent ${agentId} has no payments in ${period}: there is nothing to put on a statement`);
    }
    return issued;
  }

  /**
   * Starts generate-for-month: one statement per agent with payments, in chunks, in the background. One
   * RUNNING run per month and type (B010 otherwise); progress through `runStatus`.
   */
  async startMonthRun(
    scope: StatementScope,
    userId: number | null,
    lang: Lang,
    onDone: (result: { runId: number; issued: number; failed: number }) => void,
  ): Promise<{ runId: number; totalCount: number }> {
    await sql`
      UPDATE statement_run SET status = 'FAILED', ended_at = now(),
        error_message = 'no progress for ' || ${STALE_RUN} || ' (the process running it stopped)'
      WHERE status = 'RUNNING' AND heartbeat_at < now() - ${STALE_RUN}::interval`.execute(this.db);
    const agentIds = await new StatementRepository(this.db).agentsWithPayments(scope);
    if (agentIds.length === 0) {
      throw new AppError('BAD_REQUEST', `No agent has payments in ${scope.settleMonth}: no statement generated`);
    }
    let runId: number;
    try {
      const run = await this.db
        .insertInto('statement_run')
        .values({ settle_month: scope.settleMonth, statement_type: scope.statementType, total_count: agentIds.length, created_by: userId })
        .returning('run_id')
        .executeTakeFirstOrThrow();
      runId = Number(run.run_id);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') {
        throw new AppError('BATCH_RUNNING', `Statements of ${scope.settleMonth} ${scope.statementType} are already being generated`);
      }
      throw err;
    }
    const work = this.runChunks(runId, scope, agentIds, userId, lang)
      .then(onDone)
      .catch((err: unknown) => this.log.error({ err, runId }, 'statement run failed'))
      .finally(() => this.running.delete(work));
    this.running.add(work);
    return { runId, totalCount: agentIds.length };
  }

  private async runChunks(runId: number, scope: StatementScope, agentIds: number[], userId: number | null, lang: Lang) {
    let done = 0;
    let failed = 0;
    let firstError: string | undefined;
    const repo = new StatementRepository(this.db);
    const chunks = chunksOf(agentIds, CHUNK_AGENTS);
    // The next chunk's data loads while this chunk's files are written (the files are the CPU-bound part).
    const load = (i: number) => {
      const loading = repo.load(scope, chunks[i]!, lang);
      loading.catch(() => undefined);
      return loading;
    };
    let next = chunks.length > 0 ? load(0) : undefined;
    for (let i = 0; i < chunks.length; i += 1) {
      const chunk = chunks[i]!;
      const current = next!;
      next = i + 1 < chunks.length ? load(i + 1) : undefined;
      try {
        done += (await this.save(scope, await current, userId, lang)).length;
      } catch (err) {
        failed += chunk.length;
        firstError ??= err instanceof Error ? err.message : String(err);
        this.log.error({ err, runId }, 'statement chunk failed');
      }
      await this.db
        .updateTable('statement_run')
        .set({ done_count: done, error_count: failed, heartbeat_at: new Date() })
        .where('run_id', '=', runId)
        .execute();
    }
    await this.db
      .updateTable('statement_run')
      .set({
        status: failed === 0 ? 'COMPLETED' : 'FAILED',
        error_message: firstError ? firstError.slice(0, 2000) : null,
        ended_at: new Date(),
        heartbeat_at: new Date(),
      })
      .where('run_id', '=', runId)
      .execute();
    return { runId, issued: done, failed };
  }

  runStatus(runId: number) {
    return this.db.selectFrom('statement_run').selectAll().where('run_id', '=', runId).executeTakeFirst();
  }

  /** Waits for background runs (app close). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** Bytes of a statement's file; the statement becomes DOWNLOADED. A CANCELLED statement is B001. */
  async download(statementId: number) {
    const row = await this.db
      .selectFrom('commission_statement as cs')
      .leftJoin('file_storage as f', 'f.file_id', 'cs.file_id')
      .select(['cs.statement_id', 'cs.issue_status', 'cs.file_id', 'f.file_path', 'f.original_name', 'f.is_deleted'])
      .where('cs.statement_id', '=', statementId)
      .executeTakeFirst();
    if (!row) throw notFound(`Statement ${statementId}`);
    if (row.issue_status === 'CANCELLED') {
      throw new AppError('ALREADY_CONFIRMED', `Statement ${statementId} is CANCELLED: generate it again to download it`);
    }
    const opened = row.file_path && !row.is_deleted ? await this.store.open(row.file_path) : undefined;
    if (!opened) throw new AppError('FILE_NOT_FOUND');
    const after = await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('file_storage').set({ download_count: sql`download_count + 1` }).where('file_id', '=', row.file_id).execute();
      return trx
        .updateTable('commission_statement')
        .set({ issue_status: 'DOWNLOADED', updated_at: new Date(), version: sql`version + 1` })
        .where('statement_id', '=', statementId)
        .where('issue_status', '<>', 'CANCELLED')
        .returning(['statement_id', 'issue_status', 'version'])
        .executeTakeFirst();
    });
    return { before: { issueStatus: row.issue_status }, after, fileName: row.original_name ?? `statement-${statementId}.xlsx`, opened };
  }

  async cancel(statementId: number) {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('commission_statement').selectAll().where('statement_id', '=', statementId).forUpdate().executeTakeFirst();
      if (!before) throw notFound(`Statement ${statementId}`);
      if (before.issue_status === 'CANCELLED') throw new AppError('ALREADY_CONFIRMED', `Statement ${statementId} is already CANCELLED`);
      const after = await trx
        .updateTable('commission_statement')
        .set({ issue_status: 'CANCELLED', updated_at: new Date(), version: sql`version + 1` })
        .where('statement_id', '=', statementId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { before, after };
    });
  }
}
