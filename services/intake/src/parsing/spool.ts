import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An upload written to a temporary file (readers need random access: the zip directory is at the end). */
export interface SpooledFile {
  path: string;
  fileName: string;
  size: number;
  /** SHA-256 of the bytes, hex */
  sha256: string;
  remove(): Promise<void>;
}

/** Streams `source` to a temporary file while hashing it; memory does not grow with the file. */
export async function spoolToTemp(source: Readable, fileName: string): Promise<SpooledFile> {
  const path = join(tmpdir(), `csp-intake-${randomUUID()}`);
  const hash = createHash('sha256');
  const hasher = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const remove = () => rm(path, { force: true });
  try {
    await pipeline(source, hasher, createWriteStream(path, { flags: 'wx' }));
  } catch (err) {
    await remove();
    throw err;
  }
  const { size } = await stat(path);
  return { path, fileName, size, sha256: hash.digest('hex'), remove };
}
