import { sql } from 'kysely';
import type { UploadTargetType, UploadTransformRule } from '@csp/db';
import { z } from 'zod';
import {
  envelope,
  invalid,
  notFound,
  ok,
  perm,
  registerResource,
  zId,
  type ServiceApp,
} from '@csp/service-kit';
import { receiveMultipart } from '../common/multipart.js';
import { registerScopedResource, type ResourceScope } from '../common/scoped-resource.js';
import { intakeDb } from '../db.js';
import { columnLetter } from '../parsing/columns.js';
import { cleanCells, headerProblem } from '../parsing/cell-text.js';
import { asFileRefusal } from '../parsing/limits.js';
import { openTabular } from '../parsing/tabular.js';
import { PREVIEW_LIMIT } from '../upload/upload.service.js';
import { IMPORT_TARGETS, isTargetTable, notAllowedMessage } from '../upload/targets/index.js';
import {
  templateColumnResource,
  uploadHistoryResource,
  uploadTemplateResource,
} from './upload-templates.resource.js';
import { validateColumn, type ColumnBody } from './upload-templates.service.js';

const MENU = 'SYSTEM_UPLOAD_TEMPLATE';
const tags = uploadTemplateResource.tags;

const targetField = z.object({
  field: z.string(),
  label: z.string(),
  type: z.string(),
  required: z.boolean(),
  description: z.string().nullable(),
});

export async function registerUploadTemplateRoutes(app: ServiceApp): Promise<void> {
  // fixed sub-paths first (find-my-way prefers static segments over :id anyway)
  app.get(
    '/api/upload-templates/target-tables',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'The 9 whitelisted target tables',
        response: {
          200: envelope(
            z.array(
              z.object({
                targetTable: z.string(),
                label: z.string(),
                owner: z.string(),
                fieldCount: z.number(),
              }),
            ),
          ),
        },
      },
    },
    async () =>
      ok(
        Object.values(IMPORT_TARGETS).map((t) => ({
          targetTable: t.table,
          label: t.label,
          owner: t.owner,
          fieldCount: t.fields.length,
        })),
      ),
  );

  app.get(
    '/api/upload-templates/target-fields/:targetTable',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Field metadata of a target table: field, label, type, required',
        params: z.object({ targetTable: z.string().max(100) }),
        response: { 200: envelope(z.array(targetField)) },
      },
    },
    async (request) => {
      const { targetTable } = request.params as { targetTable: string };
      if (!isTargetTable(targetTable)) throw invalid('targetTable', notAllowedMessage(targetTable));
      return ok(
        IMPORT_TARGETS[targetTable].fields.map((x) => ({ ...x, description: x.description ?? null })),
      );
    },
  );

  const headerFields = z.object({
    headerRow: z.coerce.number().int().min(0).max(1000).default(1),
    sheetIndex: z.coerce.number().int().min(0).max(255).default(0),
    previewRows: z.coerce.number().int().min(0).max(PREVIEW_LIMIT).default(5),
    encoding: z.string().max(20).optional(),
  });
  app.post(
    '/api/upload-templates/excel-headers',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary:
          'A sample file -> its headers with column letters and the first preview rows (multipart: file, headerRow, sheetIndex, previewRows)',
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => {
      const upload = await receiveMultipart(request);
      try {
        const fields = headerFields.parse(upload.fields);
        let headers: Array<{ column: string; index: number; header: string }> = [];
        const rows: Array<{ rowNumber: number; cells: Record<string, string> }> = [];
        let width = 0;
        let source;
        try {
          source = await openTabular(upload.file.path, {
            sheetIndex: fields.sheetIndex,
            encoding: fields.encoding ?? 'UTF-8',
          });
          for await (const row of source.rows()) {
            if (row.rowNumber === fields.headerRow) {
              const problem = headerProblem(row.cells, columnLetter);
              if (problem) throw invalid('file', problem);
              headers = row.cells.map((header, index) => ({
                column: columnLetter(index),
                index,
                header: header.trim(),
              }));
            } else if (row.rowNumber > fields.headerRow) {
              if (rows.length >= fields.previewRows) break;
              width = Math.max(width, row.cells.length);
              rows.push({
                rowNumber: row.rowNumber,
                // a sample is shown, not stored: NUL and lone surrogates are shown as U+FFFD
                cells: Object.fromEntries(cleanCells(row.cells).map((c, i) => [columnLetter(i), c])),
              });
            }
          }
        } catch (err) {
          throw asFileRefusal(err);
        }
        if (fields.headerRow === 0) {
          headers = Array.from({ length: width }, (_, index) => ({
            column: columnLetter(index),
            index,
            header: '',
          }));
        }
        return ok({
          kind: source.kind,
          sheetNames: source.sheetNames,
          sheetIndex: fields.sheetIndex,
          headerRow: fields.headerRow,
          headers,
          rows,
        });
      } finally {
        await upload.file.remove();
      }
    },
  );

  app.get(
    '/api/upload-templates/history/:historyId',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary:
          'One import: status, progress (processedCount / estimatedTotal), counts, error file, first rejected rows',
        params: z.object({ historyId: zId }),
        response: { 200: envelope(uploadHistoryResource.schemas.response) },
      },
    },
    async (request) => {
      const { historyId } = request.params as { historyId: number };
      const row = await uploadHistoryResource
        .select(app.db)
        .where(sql.ref(uploadHistoryResource.idRef), '=', historyId)
        .executeTakeFirst();
      if (!row) throw notFound(`UploadHistory ${historyId}`);
      return ok(uploadHistoryResource.toResp(row, app.cipher));
    },
  );

  registerResource(app, uploadTemplateResource);

  const templateScope: ResourceScope = {
    param: 'templateId',
    paramSchema: zId,
    field: 'templateId',
    column: 'template_id',
    parentLabel: 'UploadTemplate',
    parentExists: async (_app, id) =>
      (await intakeDb(app.db)
        .selectFrom('upload_template')
        .select('template_id')
        .where('template_id', '=', Number(id))
        .executeTakeFirst()) !== undefined,
  };
  registerScopedResource(app, templateColumnResource, templateScope);
  registerScopedResource(app, uploadHistoryResource, templateScope);

  const columnsBody = z.object({ columns: z.array(templateColumnResource.schemas.save).max(200) });
  app.put(
    '/api/upload-templates/:templateId/columns',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: "Replace all columns of a template (the template editor's save)",
        params: z.object({ templateId: zId }),
        body: columnsBody,
        response: { 200: envelope(z.object({ count: z.number() })) },
      },
    },
    async (request) => {
      const { templateId } = request.params as { templateId: number };
      const { columns } = request.body as { columns: Array<Record<string, unknown>> };
      const userId = request.user?.userId ?? null;
      const count = await app.db.transaction().execute(async (trx) => {
        const template = await intakeDb(trx)
          .selectFrom('upload_template')
          .select('template_id')
          .where('template_id', '=', templateId)
          .forUpdate()
          .executeTakeFirst();
        if (!template) throw notFound(`UploadTemplate ${templateId}`);
        const seen = new Set<string>();
        const values = [];
        for (const [i, c] of columns.entries()) {
          const body: ColumnBody = {
            sourceColumn: String(c.sourceColumn),
            targetField: String(c.targetField),
            targetType: (c.targetType ?? null) as UploadTargetType | null,
            transformRule: (c.transformRule ?? null) as UploadTransformRule | null,
            transformArgs: (c.transformArgs ?? null) as string | null,
          };
          if (seen.has(body.targetField))
            throw invalid(`columns.${i}.targetField`, `${body.targetField} is mapped twice`);
          seen.add(body.targetField);
          const type = await validateColumn(trx, templateId, body, `columns.${i}.`);
          values.push({
            template_id: templateId,
            source_column: body.sourceColumn,
            source_header: (c.sourceHeader as string | null | undefined) ?? null,
            target_field: body.targetField,
            target_type: type,
            is_required: Boolean(c.isRequired),
            transform_rule: body.transformRule ?? null,
            transform_args: body.transformArgs ?? null,
            default_value: (c.defaultValue as string | null | undefined) ?? null,
            sort_order: Number(c.sortOrder ?? i),
            created_by: userId,
            updated_by: userId,
          });
        }
        await intakeDb(trx)
          .deleteFrom('upload_template_column')
          .where('template_id', '=', templateId)
          .execute();
        if (values.length) await intakeDb(trx).insertInto('upload_template_column').values(values).execute();
        return values.length;
      });
      request.changeLog({
        menuCode: MENU,
        tableName: 'upload_template_column',
        recordId: templateId,
        action: 'UPDATE',
        after: { columns },
      });
      return ok({ count });
    },
  );
}
