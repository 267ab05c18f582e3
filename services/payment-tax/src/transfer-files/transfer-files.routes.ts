import { z } from 'zod';
import { action, AppError, contentDisposition, envelope, ok, perm, zDate, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { BANK_FORMATS } from '../calc/transfer-file-format.js';
import { FileStore } from '../common/file-store.js';
import { actorId } from '../common/request.js';
import { writeTransferFile } from './transfer-files.service.js';

const MENU = 'PAYMENT';
const tags = ['Payments'];

const transferBody = z.object({
  settleMonth: zSettleMonth,
  bankFormat: z.enum(BANK_FORMATS).default('CSV'),
  transferDate: zDate.optional().describe('requested pay date (default today in Korea); moved to the next business day'),
});
const transferResp = z.object({
  fileId: z.number(),
  fileName: z.string(),
  bankFormat: z.enum(BANK_FORMATS),
  settleMonth: z.string(),
  transferDate: z.string(),
  daysSkipped: z.array(z.string()),
  count: z.number(),
  totalAmount: z.string(),
  paymentIds: z.array(z.number()),
  skippedWithoutTax: z.number(),
  skippedNotPositive: z.number(),
});

/** The bank transfer file of a month (layout: service README) and its download. */
export async function transferFileRoutes(app: ServiceApp): Promise<void> {
  const store = new FileStore(app.config.FILE_STORAGE_DIR);

  action(
    app,
    '/api/payments/transfer-file',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary:
          'Write the transfer file of a month (CSV or FIXED): PENDING payments with taxes calculated become SENT ' +
          'with pay_file_ref, all or nothing; none eligible is E400 and nothing is written',
        body: transferBody,
        response: { 200: envelope(transferResp) },
      },
    },
    async (request) => {
      const result = await writeTransferFile({ db: app.db, cipher: app.cipher, store }, request.body, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'payment', recordId: `file:${result.fileId}`, action: 'UPDATE', after: result });
      return ok(result);
    },
  );

  app.get(
    '/api/payments/transfer-file/:fileId',
    {
      config: perm(MENU, 'EXPORT'),
      schema: { tags, summary: 'Download a transfer file (binary)', params: z.object({ fileId: zId }) },
    },
    async (request, reply) => {
      const row = await app.db
        .selectFrom('file_storage')
        .select(['file_path', 'original_name', 'content_type'])
        .where('file_id', '=', request.params.fileId)
        .where('is_deleted', '=', false)
        .where('group_id', 'like', 'TRANSFER-%')
        .executeTakeFirst();
      const opened = row ? await store.open(row.file_path) : undefined;
      if (!row || !opened) throw new AppError('FILE_NOT_FOUND');
      return reply
        .header('content-type', row.content_type ?? 'application/octet-stream')
        .header('content-length', String(opened.size))
        .header('content-disposition', contentDisposition(row.original_name))
        .send(opened.stream);
    },
  );
}
