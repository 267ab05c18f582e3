import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '@csp/db';
import { storageFolder, storedFileName } from '@csp/service-kit';

/**
 * Files kept by intake (received carrier files, uploaded spreadsheets, error spreadsheets) are
 * registered in the platform's file_storage table under FILE_STORAGE_DIR, in the layout of the files
 * service (yyyy/mm/<uuid>.<ext>, path relative to the root), so GET /api/files/{fileId} serves them.
 */
export interface StoreFileInput {
  groupId: string;
  originalName: string;
  contentType: string | null;
  createdBy: number | null;
}

export class FileStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** A fresh target path (folders created) for a file about to be written. */
  async allocate(
    originalName: string,
    now = new Date(),
  ): Promise<{ absolute: string; relative: string; storedName: string }> {
    const folder = storageFolder(now);
    await mkdir(join(this.root, folder), { recursive: true });
    const storedName = storedFileName(originalName);
    const relative = `${folder}/${storedName}`;
    return { absolute: join(this.root, relative), relative, storedName };
  }

  /** Moves (or copies across devices) a finished temporary file into storage and registers it. */
  async adopt(db: Kysely<Database>, tempPath: string, input: StoreFileInput): Promise<number> {
    const target = await this.allocate(input.originalName);
    try {
      await rename(tempPath, target.absolute);
    } catch {
      await copyFile(tempPath, target.absolute);
    }
    return this.register(db, target, input);
  }

  /** Registers a file already written to an allocated path. */
  async register(
    db: Kysely<Database>,
    target: { absolute: string; relative: string; storedName: string },
    input: StoreFileInput,
  ): Promise<number> {
    const { size } = await stat(target.absolute);
    try {
      const row = await db
        .insertInto('file_storage')
        .values({
          group_id: input.groupId,
          original_name: input.originalName.slice(0, 500),
          stored_name: target.storedName,
          file_path: target.relative,
          file_size: size,
          content_type: input.contentType,
          created_by: input.createdBy,
        })
        .returning('file_id')
        .executeTakeFirstOrThrow();
      return row.file_id;
    } catch (err) {
      await rm(target.absolute, { force: true });
      throw err;
    }
  }
}
