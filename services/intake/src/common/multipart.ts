import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, assertCleanText, invalid, isSystemError, malformedForm, textProblem, unlessCutOff } from '@csp/service-kit';
import { spoolToTemp, type SpooledFile } from '../parsing/spool.js';

/** Spec 8: the files service limit; uploads to intake follow it. */
export const UPLOAD_LIMIT_MB = 100;

export interface MultipartUpload {
  /** Text fields of the form (before and after the file). */
  fields: Record<string, string>;
  file: SpooledFile;
}

/** The last path segment of a client-supplied name (some browsers send a full path). */
export function cleanFileName(name: string): string {
  const last = name.replace(/\\/g, '/').split('/').pop()?.trim() ?? '';
  return (last || 'upload').slice(0, 255);
}

/**
 * Reads a multipart request: one file part (field name `file`) spooled to a temporary file, plus
 * the text fields. The caller removes the file (`file.remove()`) when done.
 */
export async function receiveMultipart(request: FastifyRequest): Promise<MultipartUpload> {
  if (!request.isMultipart()) throw invalid('file', 'a multipart/form-data request with a file is required');
  const fields: Record<string, string> = {};
  let file: SpooledFile | undefined;
  const parts = request.parts({ limits: { fileSize: UPLOAD_LIMIT_MB * 1024 * 1024, files: 1 } })[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await unlessCutOff(request, parts.next());
      if (next.done) break;
      const part = next.value;
      // The kit checks params, query and JSON bodies; multipart text is only seen here.
      if (part.type === 'file') {
        const nameProblem = textProblem(part.filename);
        if (nameProblem) {
          part.file.resume();
          throw invalid('file', `name ${nameProblem}`);
        }
        if (file) throw invalid('file', 'send exactly one file');
        let spooled: SpooledFile;
        const spooling = spoolToTemp(part.file, cleanFileName(part.filename));
        try {
          // a body cut inside the file leaves the part's stream open for good: not awaited forever
          spooled = await unlessCutOff(request, spooling, () => part.file.destroy(new Error('the request ended inside the file')));
        } catch (err) {
          // a body that ends mid-file is the client's; a disk that fails is ours
          if (!isSystemError(err)) throw malformedForm(err);
          request.log.error({ err }, 'spooling an upload failed');
          throw new AppError('FILE_UPLOAD_FAIL');
        }
        file = spooled;
        if (part.file.truncated) throw new AppError('BAD_REQUEST', `File exceeds ${UPLOAD_LIMIT_MB} MB`);
      } else {
        const value = String(part.value ?? '');
        assertCleanText({ [part.fieldname]: value });
        fields[part.fieldname] = value;
      }
    }
  } catch (err) {
    // not awaited: on a cut-off body the plugin's iterator may never settle
    void parts.return?.(undefined)?.catch(() => undefined);
    await file?.remove();
    if (err instanceof AppError || isSystemError(err)) throw err;
    throw malformedForm(err);
  }
  if (!file) throw invalid('file', 'is required');
  if (file.size === 0) {
    await file.remove();
    throw invalid('file', 'is empty');
  }
  return { fields, file };
}
