import { randomUUID } from 'node:crypto';
import { extname, isAbsolute, relative, resolve } from 'node:path';

// The layout of stored files under FILE_STORAGE_DIR, shared by every service that writes
// file_storage rows (auth-platform uploads, intake carrier files, payment-tax generated files), so
// `/api/files/{id}` serves any of them.

/** `yyyy/mm`: the month folder a file stored at `now` goes into. */
export function storageFolder(now = new Date()): string {
  return `${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/** A random stored name keeping only a short alphanumeric extension of the original name. */
export function storedFileName(originalName: string): string {
  const ext = extname(originalName);
  return `${randomUUID()}${/^\.[A-Za-z0-9]{1,10}$/.test(ext) ? ext.toLowerCase() : ''}`;
}

/** The absolute path of a stored file (relative to `root`; paths written elsewhere may be absolute). */
export function resolveStoredPath(root: string, filePath: string): string {
  const absolute = isAbsolute(filePath) ? filePath : resolve(root, filePath);
  if (!isAbsolute(filePath) && relative(root, absolute).startsWith('..')) {
    throw new Error(`file path escapes the storage root: ${filePath}`);
  }
  return absolute;
}
