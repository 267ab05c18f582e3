import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { RECEIVE_DATA_TYPES } from '@csp/db';
import { envelope, invalid, ok, perm, zDate, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { receiveMultipart } from '../common/multipart.js';
import { registerScopedResource, type ResourceScope } from '../common/scoped-resource.js';
import { intakeDb } from '../db.js';
import { codeMappingResource, fieldMappingResource } from './mappings.resource.js';
import {
  endFieldMapping,
  fieldMappingBody,
  findFieldMapping,
  saveFieldMappingVersion,
  type SavedVersion,
} from './mappings.service.js';
import { testParse, testParseResult, TEST_PARSE_MAX_ROWS } from './test-parse.service.js';

const MENU = 'RECEIVE_MAPPING';
const companyCode = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');

function companyScope(app: ServiceApp): Omit<ResourceScope, 'validate'> {
  return {
    param: 'companyCode',
    paramSchema: companyCode,
    field: 'companyCode',
    column: 'company_code',
    parentLabel: 'Insurance company',
    parentExists: async (_app, code) =>
      (await intakeDb(app.db)
        .selectFrom('insurance_company')
        .select('company_code')
        .where('company_code', '=', String(code))
        .executeTakeFirst()) !== undefined,
  };
}

const versionResult = envelope(z.object({ id: z.number(), version: z.number() }));

export async function registerMappingRoutes(app: ServiceApp): Promise<void> {
  const scope = companyScope(app);
  // list and detail from the declaration; writes below create versions
  registerScopedResource(app, fieldMappingResource, scope);
  registerScopedResource(app, codeMappingResource, scope);

  const tags = fieldMappingResource.tags;
  const base = fieldMappingResource.path;
  const listParams = z.object({ companyCode });
  const itemParams = z.object({ companyCode, id: zId });
  const body = fieldMappingResource.schemas.save;
  const log = (request: FastifyRequest, saved: SavedVersion) =>
    request.changeLog({
      menuCode: MENU,
      tableName: 'company_field_mapping',
      recordId: saved.id,
      action: 'CREATE',
      before: saved.before,
      after: saved.after,
    });

  app.post(
    base,
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary: 'Create a field mapping (a new version when the target field is mapped already)',
        params: listParams,
        body,
        response: { 200: versionResult },
      },
    },
    async (request) => {
      const { companyCode: code } = request.params as { companyCode: string };
      if (!(await scope.parentExists(app, code)))
        throw invalid('companyCode', `insurance company ${code} does not exist`);
      const saved = await saveFieldMappingVersion(
        app.db,
        code,
        fieldMappingBody(request.body as Record<string, unknown>),
        request.user?.userId ?? null,
      );
      log(request, saved);
      return ok({ id: saved.id, version: saved.version });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary:
          'Revise a field mapping: a new version from effectiveFrom; the revised version stays as it was',
        params: itemParams,
        body,
        response: { 200: versionResult },
      },
    },
    async (request) => {
      const { companyCode: code, id } = request.params as { companyCode: string; id: number };
      const current = await findFieldMapping(app.db, code, id);
      const input = fieldMappingBody(request.body as Record<string, unknown>);
      if (input.targetTable !== current.target_table || input.targetField !== current.target_field) {
        throw invalid(
          'targetField',
          `a revision keeps ${current.target_table}.${current.target_field}; create a new mapping for another field`,
        );
      }
      const saved = await saveFieldMappingVersion(app.db, code, input, request.user?.userId ?? null);
      log(request, saved);
      return ok({ id: saved.id, version: saved.version });
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: perm(MENU, 'DELETE'),
      schema: {
        tags,
        summary: 'Stop mapping the field from effectiveFrom (default today): an inactive new version',
        params: itemParams,
        querystring: z.object({ effectiveFrom: zDate.optional() }),
        response: { 200: versionResult },
      },
    },
    async (request) => {
      const { companyCode: code, id } = request.params as { companyCode: string; id: number };
      const { effectiveFrom } = request.query as { effectiveFrom?: string };
      const saved = await endFieldMapping(app.db, code, id, effectiveFrom, request.user?.userId ?? null);
      log(request, saved);
      return ok({ id: saved.id, version: saved.version });
    },
  );

  const testFields = z.object({
    settleMonth: zSettleMonth,
    dataType: z.enum(RECEIVE_DATA_TYPES).optional(),
    limit: z.coerce.number().int().min(1).max(TEST_PARSE_MAX_ROWS).default(100),
  });
  app.post(
    '/api/mapping/:companyCode/test-parse',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary:
          'Run a sample carrier file through the active mappings of a month: mapped rows and errors, nothing stored',
        consumes: ['multipart/form-data'],
        params: listParams,
        response: { 200: envelope(testParseResult) },
      },
    },
    async (request) => {
      const { companyCode: code } = request.params as { companyCode: string };
      const upload = await receiveMultipart(request);
      try {
        const fields = testFields.parse(upload.fields);
        return ok(
          await testParse(app.db, {
            companyCode: code,
            settleMonth: fields.settleMonth,
            dataType: fields.dataType,
            file: upload.file,
            limit: fields.limit,
          }),
        );
      } finally {
        await upload.file.remove();
      }
    },
  );
}
