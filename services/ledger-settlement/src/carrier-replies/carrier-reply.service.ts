import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { AppError, invalid, moneyColumn, notFound, writeSpreadsheet, XLSX_CONTENT_TYPE, type ChangeLogEntry } from '@csp/service-kit';
import { inTransaction, type Executor } from '../period-closes/month-guard.js';
import { MENU_RECON_OUT } from './carrier-reply.resource.js';

/** One line of the reply: a ledger row the carrier's figure disagrees with, or a raw row nothing matched. */
export interface ReplyLine {
  kind: 'DIFF' | 'UNMATCHED';
  source: string;
  rowId: number;
  policyNo: string | null;
  commissionYear: number | null;
  reported: string | null;
  system: string | null;
  diff: string | null;
  reason: string;
}

export const REPLY_COLUMNS = [
  { header: 'Kind', key: 'kind', width: 12 },
  { header: 'Source', key: 'source', width: 18 },
  { header: 'Row ID', key: 'rowId', width: 12 },
  { header: 'Policy no', key: 'policyNo', width: 18 },
  { header: 'Commission year', key: 'commissionYear', width: 10 },
  moneyColumn<ReplyLine>('Carrier amount', 'reported'),
  moneyColumn<ReplyLine>('Our amount', 'system'),
  moneyColumn<ReplyLine>('Difference', 'diff'),
  { header: 'Reason', key: 'reason', width: 50 },
];

/** The reply's lines: DIFF recruit/maintain rows of the carrier and month, then its unmatched (ERROR) raw rows. */
export async function replyLines(db: Executor, companyCode: string, settleMonth: string): Promise<ReplyLine[]> {
  const { rows } = await sql<ReplyLine & { sort: number }>`
    SELECT 'DIFF' AS kind, l.tbl AS source, l.ledger_id::int AS "rowId", l.policy_no AS "policyNo",
           l.commission_year AS "commissionYear", l.reported_company_amount::text AS reported,
           l.company_amount::text AS system, l.reconcile_diff::text AS diff,
           'carrier amount differs from ours by ' || l.reconcile_diff::text AS reason, 1 AS sort
    FROM (SELECT 'recruit_ledger' AS tbl, * FROM recruit_ledger
          UNION ALL SELECT 'maintain_ledger', * FROM maintain_ledger) l
    WHERE l.company_code = ${companyCode} AND l.settle_month = ${settleMonth} AND l.reconcile_status = 'DIFF'
    UNION ALL
    SELECT 'UNMATCHED', 'raw_commission_data', r.raw_id::int, NULL, NULL, r.reported_amount::text, NULL, NULL,
           coalesce((SELECT e.error_type || ': ' || e.error_message FROM parse_error_log e
                     WHERE e.raw_id = r.raw_id ORDER BY e.error_id DESC LIMIT 1), 'not matched'), 2
    FROM raw_commission_data r
    WHERE r.company_code = ${companyCode} AND r.settle_month = ${settleMonth} AND r.parse_status = 'ERROR'
    ORDER BY sort, source, "rowId"`.execute(db);
  return rows.map(({ sort: _sort, ...line }) => line);
}

async function sheetBytes(lines: ReplyLine[], sheetName: string): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((res, rej) => {
    out.on('end', res);
    out.on('error', rej);
  });
  await writeSpreadsheet<ReplyLine>(out, { sheetName, columns: REPLY_COLUMNS, rows: lines });
  out.end();
  await ended;
  return Buffer.concat(chunks);
}

export interface ReplyResult {
  reply: Record<string, unknown> & { reply_id: number };
  changes: ChangeLogEntry[];
}

/**
 * Generates (or regenerates while GENERATED) the reply of a carrier and month: the spreadsheet is stored under
 * FILE_STORAGE_DIR with a file_storage row (the files service serves it too); a SENT reply is final (B001).
 */
export async function generateReply(
  db: Executor,
  storageDir: string,
  input: { companyCode: string; settleMonth: string; userId: number | null },
): Promise<ReplyResult> {
  const company = await db.selectFrom('insurance_company').select('company_code').where('company_code', '=', input.companyCode).executeTakeFirst();
  if (!company) throw invalid('companyCode', 'is not a carrier');
  const lines = await replyLines(db, input.companyCode, input.settleMonth);
  const bytes = await sheetBytes(lines, `${input.companyCode} ${input.settleMonth}`);
  const now = new Date();
  const folder = `${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}`;
  const storedName = `${randomUUID()}.xlsx`;
  const filePath = `${folder}/${storedName}`;
  const root = resolve(storageDir);
  await mkdir(join(root, folder), { recursive: true });
  await writeFile(join(root, filePath), bytes, { flag: 'wx' });
  const diffs = lines.filter((l) => l.kind === 'DIFF');
  try {
    return await inTransaction(db, async (trx) => {
      const before = await trx
        .selectFrom('carrier_reply')
        .selectAll()
        .where('company_code', '=', input.companyCode)
        .where('settle_month', '=', input.settleMonth)
        .forUpdate()
        .executeTakeFirst();
      if (before?.status === 'SENT') {
        throw new AppError('ALREADY_CONFIRMED', `The reply of ${input.companyCode} for ${input.settleMonth} was already SENT`);
      }
      const file = await trx
        .insertInto('file_storage')
        .values({
          group_id: `CARRIER-REPLY-${input.companyCode}-${input.settleMonth}`,
          original_name: `carrier-reply-${input.companyCode}-${input.settleMonth}.xlsx`,
          stored_name: storedName,
          file_path: filePath,
          file_size: bytes.length,
          content_type: XLSX_CONTENT_TYPE,
          created_by: input.userId,
        })
        .returning('file_id')
        .executeTakeFirstOrThrow();
      if (before?.file_id) await trx.updateTable('file_storage').set({ is_deleted: true }).where('file_id', '=', before.file_id).execute();
      const { rows } = await sql<{ total: string }>`SELECT coalesce(sum(d::numeric), 0)::text AS total FROM unnest(${diffs.map((d) => d.diff ?? '0')}::text[]) d`.execute(trx);
      const values = {
        diff_count: diffs.length,
        unmatched_count: lines.length - diffs.length,
        diff_total: rows[0]!.total,
        file_id: Number(file.file_id),
        status: 'GENERATED' as const,
        generated_by: input.userId,
        generated_at: now,
        updated_at: now,
      };
      const reply = before
        ? await trx
            .updateTable('carrier_reply')
            .set({ ...values, version: sql`version + 1` })
            .where('reply_id', '=', before.reply_id)
            .returningAll()
            .executeTakeFirstOrThrow()
        : await trx
            .insertInto('carrier_reply')
            .values({ ...values, company_code: input.companyCode, settle_month: input.settleMonth })
            .returningAll()
            .executeTakeFirstOrThrow();
      return {
        reply,
        changes: [{ menuCode: MENU_RECON_OUT, tableName: 'carrier_reply', recordId: reply.reply_id, action: before ? 'UPDATE' : 'CREATE', before, after: reply }],
      };
    });
  } catch (err) {
    await rm(join(root, filePath), { force: true });
    throw err;
  }
}

/** The reply's file bytes (E404 / F001 when missing). */
export async function replyFile(db: Executor, storageDir: string, replyId: number): Promise<{ name: string; bytes: Buffer }> {
  const row = await db
    .selectFrom('carrier_reply as cr')
    .leftJoin('file_storage as fs', 'fs.file_id', 'cr.file_id')
    .select(['cr.reply_id', 'fs.file_path', 'fs.original_name'])
    .where('cr.reply_id', '=', replyId)
    .executeTakeFirst();
  if (!row) throw notFound(`CarrierReply ${replyId}`);
  if (!row.file_path) throw new AppError('FILE_NOT_FOUND');
  try {
    return { name: row.original_name ?? 'carrier-reply.xlsx', bytes: await readFile(join(resolve(storageDir), row.file_path)) };
  } catch {
    throw new AppError('FILE_NOT_FOUND');
  }
}

/** GENERATED -> SENT with an optional note (B001 when already sent). */
export async function markReplySent(
  db: Executor,
  input: { replyId: number; userId: number | null; note?: string | undefined },
): Promise<ReplyResult> {
  return inTransaction(db, async (trx) => {
    const before = await trx.selectFrom('carrier_reply').selectAll().where('reply_id', '=', input.replyId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`CarrierReply ${input.replyId}`);
    if (before.status !== 'GENERATED') throw new AppError('ALREADY_CONFIRMED', `CarrierReply ${input.replyId} is ${before.status}`);
    const reply = await trx
      .updateTable('carrier_reply')
      .set({ status: 'SENT', sent_by: input.userId, sent_at: sql`now()`, sent_note: input.note ?? null, updated_at: sql`now()`, version: sql`version + 1` })
      .where('reply_id', '=', input.replyId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { reply, changes: [{ menuCode: MENU_RECON_OUT, tableName: 'carrier_reply', recordId: input.replyId, action: 'UPDATE', before, after: reply }] };
  });
}
