import { z } from 'zod';
import { envelope, ok, perm, type ServiceApp } from '@csp/service-kit';
import { FileStore } from '../common/file-store.js';
import { receiveMultipart } from '../common/multipart.js';
import { PREVIEW_LIMIT, previewImport, runImport } from './upload.service.js';

const MENU = 'SYSTEM_UPLOAD_TEMPLATE';
const tags = ['Upload'];
const templateCode = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');
const params = z.object({ templateCode });

const rowError = z.object({
  rowNumber: z.number(),
  field: z.string().nullable(),
  value: z.string().nullable(),
  message: z.string(),
});
const importResult = z.object({
  historyId: z.number(),
  totalCount: z.number(),
  successCount: z.number(),
  errorCount: z.number(),
  errorFileId: z.number().nullable(),
  errors: z.array(rowError),
});
const cellValue = z.union([z.string(), z.boolean(), z.null()]);
const previewResult = z.object({
  templateCode: z.string(),
  targetTable: z.string(),
  columns: z.array(
    z.object({ sourceColumn: z.string(), sourceHeader: z.string().nullable(), targetField: z.string() }),
  ),
  rows: z.array(
    z.object({
      rowNumber: z.number(),
      ok: z.boolean(),
      values: z.record(z.string(), cellValue),
      error: rowError.nullable(),
    }),
  ),
});

const encodingField = z.object({ encoding: z.string().max(20).optional() });

export async function registerUploadRoutes(app: ServiceApp): Promise<void> {
  const files = new FileStore(app.config.FILE_STORAGE_DIR);
  const deps = { db: app.db, files, cipher: app.cipher };

  app.post(
    '/api/upload/:templateCode',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary:
          "Import a spreadsheet through a template (multipart: file). Also needs the target table's own permission (e.g. CONTRACT_LIST CREATE). " +
          'Rows are written in batches of 1000, each committed separately; progress is on the upload history row.',
        consumes: ['multipart/form-data'],
        params,
        response: { 200: envelope(importResult) },
      },
    },
    async (request) => {
      const { templateCode: code } = request.params as { templateCode: string };
      const upload = await receiveMultipart(request);
      try {
        const { encoding } = encodingField.parse(upload.fields);
        const userId = request.user?.userId ?? null;
        const result = await runImport(deps, {
          templateCode: code,
          file: upload.file,
          encoding,
          userId,
          authorize: async (menu, permCode) => {
            if (userId !== null) await app.permissions.require(userId, menu, permCode);
          },
        });
        request.changeLog({
          menuCode: MENU,
          tableName: 'upload_history',
          recordId: result.historyId,
          action: 'CREATE',
          after: { ...result, errors: undefined },
        });
        return ok(result);
      } finally {
        await upload.file.remove();
      }
    },
  );

  const previewQuery = z.object({ limit: z.coerce.number().int().min(1).max(PREVIEW_LIMIT).default(20) });
  app.post(
    '/api/upload/:templateCode/preview',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary:
          'The first rows transformed and checked as the import would (query limit <= 100); nothing is written',
        consumes: ['multipart/form-data'],
        params,
        querystring: previewQuery,
        response: { 200: envelope(previewResult) },
      },
    },
    async (request) => {
      const { templateCode: code } = request.params as { templateCode: string };
      const { limit } = request.query as { limit: number };
      const upload = await receiveMultipart(request);
      try {
        const { encoding } = encodingField.parse(upload.fields);
        return ok(await previewImport(deps, code, upload.file, limit, encoding));
      } finally {
        await upload.file.remove();
      }
    },
  );
}
