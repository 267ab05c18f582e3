import { randomUUID } from 'node:crypto';
import type {} from '@fastify/multipart';
import { z } from 'zod';
import {
  AppError,
  contentDisposition,
  envelope,
  invalid,
  isSystemError,
  malformedForm,
  ok,
  perm,
  readSystemConfig,
  registerResource,
  textProblem,
  unlessCutOff,
  zId,
  type ServiceApp,
} from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { findRow } from '../common/resource-rows.js';
import { FileRepository } from './files.repository.js';
import { FILE_MENU as MENU, fileResource, groupIdQuery } from './files.resource.js';
import { cleanOriginalName, FileStorage } from './storage.js';

const tags = fileResource.tags;
const params = z.object({ id: zId });
const MB = 1024 * 1024;
/** Spec 8: the files service accepts up to 100 MB (system_config UPLOAD_MAX_SIZE_MB can lower it). */
const DEFAULT_UPLOAD_LIMIT_MB = 100;

export async function fileRoutes(app: ServiceApp): Promise<void> {
  const repo = new FileRepository(app.db);
  const storage = new FileStorage(app.config.FILE_STORAGE_DIR);
  const toResp = async (fileId: number) => fileResource.toResp((await findRow(fileResource, app.db, fileId))!, app.cipher);

  /** UPLOAD_MAX_SIZE_MB from system_config, never above the default. */
  const uploadLimitMb = async () => {
    const mb = Number((await readSystemConfig(app.db, ['UPLOAD_MAX_SIZE_MB'])).get('UPLOAD_MAX_SIZE_MB'));
    return Math.min(Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_UPLOAD_LIMIT_MB, DEFAULT_UPLOAD_LIMIT_MB);
  };

  app.post(
    '/api/files/upload',
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary: 'Upload one file (multipart field "file"); without groupId a new group id is assigned',
        consumes: ['multipart/form-data'],
        querystring: z.object({ groupId: groupIdQuery.optional() }),
        response: { 200: envelope(fileResource.schemas.response) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw invalid('file', 'a multipart/form-data request with a file is required');
      const limitMb = await uploadLimitMb();
      let part;
      try {
        part = await unlessCutOff(request, request.file({ limits: { fileSize: Math.floor(limitMb * MB), files: 1 }, throwFileSizeLimit: false }));
      } catch (err) {
        // no boundary, or a body cut before the file: the client's form, not our failure
        throw malformedForm(err);
      }
      if (!part) throw invalid('file', 'is required');
      const file = part.file;
      // The kit checks params, query and JSON bodies; a multipart file name is only known here.
      const nameProblem = textProblem(part.filename);
      if (nameProblem) {
        part.file.resume();
        throw invalid('file', `name ${nameProblem}`);
      }

      const originalName = cleanOriginalName(part.filename);
      let stored;
      const abort = new AbortController();
      const saving = storage.save(file, originalName, new Date(), abort.signal);
      try {
        // a body cut inside the file leaves the part's stream open for good: not awaited forever
        stored = await unlessCutOff(request, saving, () => abort.abort(new Error('the request ended inside the file')));
      } catch (err) {
        // the aborted save removes its partial file before we answer
        await saving.catch(() => undefined);
        // a body that ends mid-file is the client's; a disk that fails is ours
        if (!isSystemError(err)) throw malformedForm(err);
        request.log.error({ err }, 'storing an uploaded file failed');
        throw new AppError('FILE_UPLOAD_FAIL');
      }
      // Over the limit the stream was cut short: nothing of it is kept.
      if (part.file.truncated) {
        await storage.remove(stored.filePath);
        throw new AppError('BAD_REQUEST', `File exceeds ${limitMb} MB`);
      }

      const fileId = await repo.insert({
        groupId: request.query.groupId ?? randomUUID(),
        originalName,
        storedName: stored.storedName,
        filePath: stored.filePath,
        fileSize: stored.size,
        contentType: part.mimetype ? part.mimetype.slice(0, 200) : null,
        createdBy: actorId(request),
      });
      const resp = await toResp(fileId);
      request.changeLog({ menuCode: MENU, tableName: 'file_storage', recordId: fileId, action: 'CREATE', after: resp });
      return ok(resp);
    },
  );

  registerResource(app, fileResource);

  app.get(
    '/api/files/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Download a file (binary; counts the download)', params } },
    async (request, reply) => {
      const row = await repo.find(request.params.id);
      if (!row) throw new AppError('FILE_NOT_FOUND');
      const opened = await storage.open(row.file_path);
      if (!opened) {
        request.log.warn({ fileId: row.file_id, filePath: row.file_path }, 'file row exists but the file is not on disk');
        throw new AppError('FILE_NOT_FOUND');
      }
      if (!(await repo.countDownload(row.file_id))) {
        opened.stream.destroy();
        throw new AppError('FILE_NOT_FOUND');
      }
      return reply
        .header('content-type', row.content_type || 'application/octet-stream')
        .header('content-length', String(opened.size))
        .header('content-disposition', contentDisposition(row.original_name))
        .header('x-content-type-options', 'nosniff')
        .send(opened.stream);
    },
  );

  app.delete(
    '/api/files/:id',
    { config: perm(MENU, 'DELETE'), schema: { tags, summary: 'Delete a file (logical)', params, response: { 200: envelope() } } },
    async (request) => {
      const id = request.params.id;
      const before = await findRow(fileResource, app.db, id);
      if (!before || !(await repo.markDeleted(id))) throw new AppError('FILE_NOT_FOUND');
      const resp = fileResource.toResp(before, app.cipher);
      request.changeLog({ menuCode: MENU, tableName: 'file_storage', recordId: id, action: 'DELETE', before: resp, after: { isDeleted: true } });
      return ok();
    },
  );
}
