import type { FastifyRequest } from 'fastify';
import { AppError, invalid } from './errors.js';

/** A file-system failure (ENOSPC, EACCES, ...), as opposed to a malformed request body. */
export function isSystemError(err: unknown): boolean {
  return typeof (err as { syscall?: unknown } | null)?.syscall === 'string';
}

/** A form the multipart parser gave up on (no boundary, cut off, too many parts): E411 on `file`, never a 500. */
export function malformedForm(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return invalid('file', `the multipart/form-data body is malformed or incomplete (${reason.slice(0, 200)})`);
}

/**
 * How long the parser may take to produce the next part, or a store to finish the file, once the
 * whole body has arrived (with backpressure at most a buffer's worth is left by then).
 */
const AFTER_END_GRACE_MS = 2000;

/**
 * `step`, or a failure when the request has ended and `step` still has not settled a moment later:
 * a body cut inside a part leaves the multipart plugin's part iterator (or the file stream) waiting
 * forever. `onCutOff` runs first, to stop whatever consumes the file.
 */
export async function unlessCutOff<T>(request: FastifyRequest, step: Promise<T>, onCutOff?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onEnd: (() => void) | undefined;
  const cutOff = new Promise<never>((_, reject) => {
    const arm = () => {
      timer = setTimeout(() => {
        onCutOff?.();
        reject(new Error('the request ended inside a part'));
      }, AFTER_END_GRACE_MS);
    };
    if (request.raw.readableEnded) arm();
    else request.raw.once('end', (onEnd = arm));
  });
  cutOff.catch(() => undefined);
  try {
    return await Promise.race([step, cutOff]);
  } finally {
    if (timer) clearTimeout(timer);
    if (onEnd) request.raw.off('end', onEnd);
  }
}
