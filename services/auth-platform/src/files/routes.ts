import { randomUUID } from 'node:crypto';
import type {} from '@fastify/multipart';
import {
  AppError,
  contentDisposition,
  envelope,
  invalid,
  isoTimestamp,
  ok,
  pageResponse,
  paginate,
  perm,
  type ServiceApp,
} from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { FileRepository, type FileRow } from './repository.js';
import { FILE_SORT, fileIdParams, fileListQuery, fileResp, uploadQuery } from './schemas.js';
import { cleanOriginalName, FileStorage } from './storage.js';

const MENU = 'ATTACHMENT';
const tags = ['files'];
const MB = 1024 * 1024;
/** Spec 8: the files service accepts up to 100 MB (system_config UPLOAD_MAX_SIZE_MB can lower it). */
export const DEFAULT_UPLOAD_LIMIT_MB = 100;

export function toFileResp(row: FileRow) {
  return {
    fileId: row.file_id,
    groupId: row.group_id,
    originalName: row.original_name,
    fileSize: Number(row.file_size),
    contentType: row.content_type,
    downloadCount: row.download_count,
    createdBy: row.created_by,
    createdAt: isoTimestamp(row.created_at),
  };
}

export async function fileRoutes(app: ServiceApp): Promise<void> {
  const repo = new FileRepository(app.db);
  const storage = new FileStorage(app.config.FILE_STORAGE_DIR);

  app.post(
    '/api/files/upload',
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary: 'Upload one file (multipart field "file"); without groupId a new group id is assigned',
        consumes: ['multipart/form-data'],
        querystring: uploadQuery,
        response: { 200: envelope(fileResp) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw invalid('file', 'a multipart/form-data request with a file is required');
      const limitMb = Math.min((await repo.uploadLimitMb()) ?? DEFAULT_UPLOAD_LIMIT_MB, DEFAULT_UPLOAD_LIMIT_MB);
      const part = await request.file({ limits: { fileSize: Math.floor(limitMb * MB), files: 1 }, throwFileSizeLimit: false });
      if (!part) throw invalid('file', 'is required');

      const originalName = cleanOriginalName(part.filename);
      let stored;
      try {
        stored = await storage.save(part.file, originalName);
      } catch (err) {
        request.log.error({ err }, 'storing an uploaded file failed');
        throw new AppError('FILE_UPLOAD_FAIL');
      }
      // Over the limit the stream was cut short: nothing of it is kept.
      if (part.file.truncated) {
        await storage.remove(stored.filePath);
        throw new AppError('BAD_REQUEST', `File exceeds ${limitMb} MB`);
      }

      const row = await repo.insert({
        groupId: request.query.groupId ?? randomUUID(),
        originalName,
        storedName: stored.storedName,
        filePath: stored.filePath,
        fileSize: stored.size,
        contentType: part.mimetype ? part.mimetype.slice(0, 200) : null,
        createdBy: actorId(request),
      });
      const resp = toFileResp(row);
      request.changeLog({ menuCode: MENU, tableName: 'file_storage', recordId: row.file_id, action: 'CREATE', after: resp });
      return ok(resp);
    },
  );

  app.get(
    '/api/files',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Files (of a group), deleted ones excluded', querystring: fileListQuery, response: { 200: pageResponse(fileResp) } },
    },
    async (request) => {
      const page = await paginate(repo.listQuery(request.query), request.query, { sortable: FILE_SORT, defaultSort: 'file_id' });
      return ok({ ...page, list: page.list.map((row) => toFileResp(row as FileRow)) });
    },
  );

  app.get(
    '/api/files/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Download a file (binary; counts the download)', params: fileIdParams } },
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
    { config: perm(MENU, 'DELETE'), schema: { tags, summary: 'Delete a file (logical)', params: fileIdParams, response: { 200: envelope() } } },
    async (request) => {
      const id = request.params.id;
      const before = await repo.find(id);
      if (!before || !(await repo.markDeleted(id))) throw new AppError('FILE_NOT_FOUND');
      request.changeLog({ menuCode: MENU, tableName: 'file_storage', recordId: id, action: 'DELETE', before: toFileResp(before), after: { isDeleted: true } });
      return ok();
    },
  );
}
