import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, extname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  storedName: string;
  /** Relative to the storage root (`yyyy/mm/<uuid>.<ext>`), so the root can move. */
  filePath: string;
  size: number;
}

/** Keeps only a short alphanumeric extension; anything else is dropped. */
function safeExtension(originalName: string): string {
  const ext = extname(originalName);
  return /^\.[A-Za-z0-9]{1,10}$/.test(ext) ? ext.toLowerCase() : '';
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

  /** Streams `source` to disk; memory does not grow with the file size. */
  async save(source: Readable, originalName: string, now = new Date()): Promise<StoredFile> {
    const folder = `${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}`;
    await mkdir(join(this.root, folder), { recursive: true });
    const storedName = `${randomUUID()}${safeExtension(originalName)}`;
    const filePath = `${folder}/${storedName}`;
    const target = this.resolve(filePath);
    try {
      await pipeline(source, createWriteStream(target, { flags: 'wx' }));
    } catch (err) {
      await rm(target, { force: true });
      throw err;
    }
    return { storedName, filePath, size: (await stat(target)).size };
  }

  /** The absolute path of a stored file; paths written by other services may already be absolute. */
  resolve(filePath: string): string {
    const absolute = isAbsolute(filePath) ? filePath : resolve(this.root, filePath);
    if (!isAbsolute(filePath) && relative(this.root, absolute).startsWith('..')) {
      throw new Error(`file path escapes the storage root: ${filePath}`);
    }
    return absolute;
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
