import { sql } from 'kysely';
import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, XLSX_CONTENT_TYPE, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { carrierReplyResource, MENU_RECON_OUT } from './carrier-reply.resource.js';
import { generateReply, markReplySent, replyFile, type ReplyResult } from './carrier-reply.service.js';

const tags = ['Carrier reply'];
const params = z.object({ id: zId });
const generateReq = z.object({
  companyCode: z.string().trim().min(1).max(20).regex(/^[A-Za-z0-9_-]+$/, 'must be a company code'),
  settleMonth: zSettleMonth,
});

/** Carrier reconciliation reply: list/detail, generate (spreadsheet file), download, mark sent. */
export async function registerCarrierReplyRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, carrierReplyResource);
  const storage = () => app.config.FILE_STORAGE_DIR;

  const respond = async (result: ReplyResult, log: (c: (typeof result.changes)[number]) => void) => {
    for (const c of result.changes) log(c);
    const row = await carrierReplyResource
      .select(app.db)
      .where(sql.ref(carrierReplyResource.idRef), '=', result.reply.reply_id)
      .executeTakeFirstOrThrow();
    return ok(carrierReplyResource.toResp(row, app.cipher));
  };

  app.post(
    '/api/carrier-replies/generate',
    {
      config: perm(MENU_RECON_OUT, 'CREATE'),
      schema: {
        tags,
        summary:
          "Generate the carrier's reply for a month: its DIFF ledger rows and its unmatched raw rows with the reason, as a spreadsheet file (again while not SENT)",
        body: generateReq,
        response: { 200: envelope(carrierReplyResource.schemas.response) },
      },
    },
    async (request) =>
      respond(
        await generateReply(app.db, storage(), { ...request.body, userId: request.user?.userId ?? null }),
        (c) => request.changeLog(c),
      ),
  );

  app.get(
    '/api/carrier-replies/:id/download',
    {
      config: perm(MENU_RECON_OUT, 'READ'),
      schema: { tags, summary: 'The reply spreadsheet (F001 when the file is gone)', params },
    },
    async (request, reply) => {
      const file = await replyFile(app.db, storage(), request.params.id);
      reply.header('content-type', XLSX_CONTENT_TYPE);
      reply.header('content-disposition', `attachment; filename="${file.name.replace(/[^A-Za-z0-9_.-]/g, '_')}"`);
      return reply.send(file.bytes);
    },
  );

  action(
    app,
    '/api/carrier-replies/:id/send',
    {
      config: perm(MENU_RECON_OUT, 'UPDATE'),
      schema: {
        tags,
        summary: 'Mark a GENERATED reply SENT to the carrier, with an optional note (else B001)',
        params,
        body: z.object({ note: z.string().trim().max(1000).optional() }).optional(),
        response: { 200: envelope(carrierReplyResource.schemas.response) },
      },
    },
    async (request) =>
      respond(
        await markReplySent(app.db, { replyId: request.params.id, userId: request.user?.userId ?? null, note: request.body?.note }),
        (c) => request.changeLog(c),
      ),
  );
}
