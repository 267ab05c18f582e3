import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolveStoredPath, storageFolder, storedFileName } from '@csp/service-kit';

export interface StoredFile {
  storedName: string;
  /** Relative to the storage root (`yyyy/mm/<uuid>.<ext>`), so the root can move. */
  filePath: string;
  size: number;
}

/** The last path segment of a client-supplied name (some browsers send a full path). */
export function cleanOriginalName(name: string): string {
  const last = basename(name.replace(/\\/g, '/')).trim();
  return (last || 'file').slice(0, 500);
}

/** Files on local disk under one root folder (FILE_STORAGE_DIR), in yyyy/mm subfolders with random names. */
export class FileStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Streams `source` to disk; memory does not grow with the file size. An abort removes the partial file. */
  async save(source: Readable, originalName: string, now = new Date(), signal?: AbortSignal): Promise<StoredFile> {
    const folder = storageFolder(now);
    await mkdir(join(this.root, folder), { recursive: true });
    const storedName = storedFileName(originalName);
    const filePath = `${folder}/${storedName}`;
    const target = this.resolve(filePath);
    try {
      await pipeline(source, createWriteStream(target, { flags: 'wx' }), signal ? { signal } : {});
    } catch (err) {
      await rm(target, { force: true });
      throw err;
    }
    return { storedName, filePath, size: (await stat(target)).size };
  }

  /** The absolute path of a stored file; paths written by other services may already be absolute. */
  resolve(filePath: string): string {
    return resolveStoredPath(this.root, filePath);
  }

  async remove(filePath: string): Promise<void> {
    await rm(this.resolve(filePath), { force: true });
  }

  /** A read stream and the size, or undefined when the file is not on disk. */
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
