import { z } from 'zod';
import { PARSE_ERROR_RESOLUTIONS, RECEIVE_DATA_TYPES, RECEIVE_FILE_KINDS } from '@csp/db';
import { envelope, ok, perm, registerResource, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { FileStore } from '../common/file-store.js';
import { receiveMultipart } from '../common/multipart.js';
import { resolveParseError } from './receive-errors.service.js';
import { processCarrierMonth } from './receive-process.service.js';
import { receiveStatus } from './receive-status.service.js';
import { receiveCarrierFile } from './receive-upload.service.js';
import { parseErrorResource, rawDataResource, receiveFileResource } from './receive.resource.js';

const MENU = 'RECEIVE_DATA';
const tags = ['Intake: receive'];
const companyCode = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');

const uploadFields = z.object({
  companyCode,
  settleMonth: zSettleMonth,
  dataType: z.enum(RECEIVE_DATA_TYPES).optional(),
  replace: z.enum(['true', 'false', '1', '0', 'Y', 'N']).optional(),
});

const uploadResult = z.object({
  receiveFileId: z.number(),
  fileId: z.number(),
  companyCode: z.string(),
  settleMonth: z.string(),
  dataType: z.string().nullable(),
  fileName: z.string(),
  fileKind: z.enum(RECEIVE_FILE_KINDS),
  rowCount: z.number(),
  header: z.array(z.string()),
  replacedReceiveFileId: z.number().nullable(),
});

const stepOutcome = z.object({
  step: z.enum(['transformData', 'reconcile']),
  total: z.number(),
  success: z.number(),
  error: z.number(),
  skipped: z.number(),
  durationMs: z.number(),
});

const carrierStatus = z.object({
  companyCode: z.string(),
  companyName: z.string(),
  receiveMethod: z.string(),
  receiveSchedule: z.string().nullable(),
  expected: z.boolean(),
  received: z.boolean(),
  fileCount: z.number(),
  lastReceivedAt: z.string().nullable(),
  rowCount: z.number(),
  pendingCount: z.number(),
  okCount: z.number(),
  errorCount: z.number(),
  openErrorCount: z.number(),
  reportedAmount: z.string(),
  reconStatus: z.string().nullable(),
  expectedAmount: z.string().nullable(),
  actualAmount: z.string().nullable(),
  diffAmount: z.string().nullable(),
});

const resolveBody = z.object({
  status: z.enum(PARSE_ERROR_RESOLUTIONS),
  note: z.string().trim().max(1000).nullable().optional(),
});

export async function registerReceiveRoutes(app: ServiceApp): Promise<void> {
  const files = new FileStore(app.config.FILE_STORAGE_DIR);

  app.post(
    '/api/receive/upload',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary:
          'Receive a carrier file (multipart: file, companyCode, settleMonth, dataType or a DATA_TYPE column, replace): one raw row per record',
        consumes: ['multipart/form-data'],
        response: { 200: envelope(uploadResult) },
      },
    },
    async (request) => {
      const upload = await receiveMultipart(request);
      try {
        const parsed = uploadFields.safeParse(upload.fields);
        if (!parsed.success) throw parsed.error;
        const fields = parsed.data;
        const result = await receiveCarrierFile(app.db, files, {
          companyCode: fields.companyCode,
          settleMonth: fields.settleMonth,
          dataType: fields.dataType,
          replace: fields.replace === 'true' || fields.replace === '1' || fields.replace === 'Y',
          file: upload.file,
          userId: request.user?.userId ?? null,
        });
        request.changeLog({
          menuCode: MENU,
          tableName: 'receive_file',
          recordId: result.receiveFileId,
          action: 'CREATE',
          after: result,
        });
        return ok(result);
      } finally {
        await upload.file.remove();
      }
    },
  );

  const processBody = z.object({ companyCode, settleMonth: zSettleMonth });
  app.route({
    method: ['POST', 'PUT'],
    url: '/api/receive/process',
    config: perm(MENU, 'UPDATE'),
    schema: {
      tags,
      summary: 'Run steps 2-3 (transformData, reconcile) for one carrier and month outside the monthly run',
      body: processBody,
      response: {
        200: envelope(
          z.object({ companyCode: z.string(), settleMonth: z.string(), steps: z.array(stepOutcome) }),
        ),
      },
    },
    handler: async (request) => {
      const body = request.body as z.output<typeof processBody>;
      const result = await processCarrierMonth(app.db, body.companyCode, body.settleMonth);
      request.log.info({ ...body, steps: result.steps }, 'carrier month processed');
      return ok(result);
    },
  });

  const statusQuery = z.object({ settleMonth: zSettleMonth, companyCode: companyCode.optional() });
  app.get(
    '/api/receive/status',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary:
          'Per carrier and month: expected vs received, rows, reported amounts, parse OK/ERROR counts, reconciliation',
        querystring: statusQuery,
        response: {
          200: envelope(
            z.object({
              settleMonth: z.string(),
              expectedCount: z.number(),
              receivedCount: z.number(),
              missing: z.array(z.string()),
              carriers: z.array(carrierStatus),
            }),
          ),
        },
      },
    },
    async (request) => {
      const q = request.query as z.output<typeof statusQuery>;
      return ok(await receiveStatus(app.db, q.settleMonth, q.companyCode));
    },
  );

  registerResource(app, parseErrorResource);
  registerResource(app, receiveFileResource);
  registerResource(app, rawDataResource);

  const resolveResult = z.object({
    errorId: z.number(),
    rawId: z.number(),
    resolveStatus: z.enum(PARSE_ERROR_RESOLUTIONS),
    parseStatus: z.enum(['OK', 'ERROR']),
    mappedTable: z.string().nullable(),
    mappedLedgerId: z.number().nullable(),
  });
  app.route({
    method: ['POST', 'PUT'],
    url: '/api/receive/errors/:id/resolve',
    config: perm(MENU, 'UPDATE'),
    schema: {
      tags: parseErrorResource.tags,
      summary:
        'Resolve a parse error: RESOLVED re-parses the raw row (after a mapping fix), IGNORED closes it',
      params: z.object({ id: zId }),
      body: resolveBody,
      response: { 200: envelope(resolveResult) },
    },
    handler: async (request) => {
      const { id } = request.params as { id: number };
      const body = request.body as z.output<typeof resolveBody>;
      const { result, before, after } = await resolveParseError(app.db, id, {
        status: body.status,
        note: body.note,
        userId: request.user?.userId ?? null,
      });
      request.changeLog({
        menuCode: MENU,
        tableName: 'parse_error_log',
        recordId: id,
        action: 'UPDATE',
        before,
        after,
      });
      return ok(result);
    },
  });
}
