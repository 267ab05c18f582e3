import { sql } from 'kysely';
import type { Db } from '@csp/db';

export interface FileInsert {
  groupId: string;
  originalName: string;
  storedName: string;
  filePath: string;
  fileSize: number;
  contentType: string | null;
  createdBy: number | null;
}

const FILE_COLUMNS = ['file_id', 'original_name', 'file_path', 'content_type'] as const;

/** Where a file lives on disk and its download bookkeeping (never in responses). */
export class FileRepository {
  constructor(private readonly db: Db) {}

  /** A file that is not logically deleted. */
  find(fileId: number) {
    return this.db.selectFrom('file_storage').select(FILE_COLUMNS).where('file_id', '=', fileId).where('is_deleted', '=', false).executeTakeFirst();
  }

  async insert(file: FileInsert): Promise<number> {
    const row = await this.db
      .insertInto('file_storage')
      .values({
        group_id: file.groupId,
        original_name: file.originalName,
        stored_name: file.storedName,
        file_path: file.filePath,
        file_size: file.fileSize,
        content_type: file.contentType,
        created_by: file.createdBy,
      })
      .returning('file_id')
      .executeTakeFirstOrThrow();
    return row.file_id;
  }

  /** Counts a download; false when the file is missing or deleted. */
  async countDownload(fileId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('file_storage')
      .set({ download_count: sql<number>`download_count + 1` })
      .where('file_id', '=', fileId)
      .where('is_deleted', '=', false)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async markDeleted(fileId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('file_storage')
      .set({ is_deleted: true })
      .where('file_id', '=', fileId)
      .where('is_deleted', '=', false)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
