import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolveStoredPath, storageFolder, storedFileName } from '@csp/service-kit';
import type { PaymentTaxDb } from '../db.js';

export interface StoredFile {
  storedName: string;
  /** Relative to the storage root (`yyyy/mm/<uuid>.<ext>`), the layout of the files service. */
  filePath: string;
  size: number;
}

export interface FileRowInput {
  groupId: string;
  originalName: string;
  contentType: string;
  createdBy: number | null;
}

/**
 * Generated files (transfer files, statements) on local disk under FILE_STORAGE_DIR, in the layout
 * the files service reads, so `/api/files/{id}` serves them too.
 */
export class FileStore {
  readonly root: string;
  /** Month folders known to exist (one mkdir per folder, not per file). */
  private readonly folders = new Set<string>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  private async folderOf(now: Date): Promise<string> {
    const folder = storageFolder(now);
    if (!this.folders.has(folder)) {
      await mkdir(join(this.root, folder), { recursive: true });
      this.folders.add(folder);
    }
    return folder;
  }

  /** Writes what `produce` puts into the stream; the file is removed again when anything fails. */
  async write(originalName: string, produce: (out: PassThrough) => Promise<unknown>, now = new Date()): Promise<StoredFile> {
    const folder = await this.folderOf(now);
    const storedName = storedFileName(originalName);
    const filePath = `${folder}/${storedName}`;
    const target = this.resolve(filePath);
    const out = new PassThrough({ highWaterMark: 256 * 1024 });
    let size = 0;
    out.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    try {
      await Promise.all([pipeline(out, createWriteStream(target, { flags: 'wx' })), produce(out).then(() => out.end())]);
    } catch (err) {
      out.destroy();
      await rm(target, { force: true });
      throw err;
    }
    return { storedName, filePath, size };
  }

  /** Writes a finished buffer. */
  writeBuffer(originalName: string, data: Buffer): Promise<StoredFile> {
    return this.write(originalName, async (out) => {
      out.write(data);
    });
  }

  resolve(filePath: string): string {
    return resolveStoredPath(this.root, filePath);
  }

  async remove(filePath: string): Promise<void> {
    await rm(this.resolve(filePath), { force: true });
  }

  /** A read stream and its size, or undefined when the file is not on disk. */
  async open(filePath: string): Promise<{ stream: ReadStream; size: number } | undefined> {
    const absolute = this.resolve(filePath);
    try {
      const info = await stat(absolute);
      if (!info.isFile()) return undefined;
      return { stream: createReadStream(absolute), size: info.size };
    } catch {
      return undefined;
    }
  }
}

/** The file_storage row of a stored file (spec 6: generated files are file_storage rows). */
export async function insertFileRow(db: PaymentTaxDb, stored: StoredFile, input: FileRowInput): Promise<number> {
  const row = await db
    .insertInto('file_storage')
    .values({
      group_id: input.groupId,
      original_name: input.originalName,
      stored_name: stored.storedName,
      file_path: stored.filePath,
      file_size: stored.size,
      content_type: input.contentType,
      created_by: input.createdBy,
    })
    .returning('file_id')
    .executeTakeFirstOrThrow();
  return row.file_id;
}
