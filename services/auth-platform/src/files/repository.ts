import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { containsPattern } from '../common/date-range.js';

export interface FileFilters {
  groupId?: string | undefined;
  originalName?: string | undefined;
  searchKeyword?: string | undefined;
}

export interface FileInsert {
  groupId: string;
  originalName: string;
  storedName: string;
  filePath: string;
  fileSize: number;
  contentType: string | null;
  createdBy: number | null;
}

const FILE_COLUMNS = [
  'file_id',
  'group_id',
  'original_name',
  'stored_name',
  'file_path',
  'file_size',
  'content_type',
  'download_count',
  'created_by',
  'created_at',
] as const;

export class FileRepository {
  constructor(private readonly db: Db) {}

  /** Files that are not logically deleted. */
  listQuery(filters: FileFilters) {
    const name = filters.originalName ?? filters.searchKeyword?.trim();
    return this.db
      .selectFrom('file_storage')
      .select(FILE_COLUMNS)
      .where('is_deleted', '=', false)
      .$if(!!filters.groupId, (qb) => qb.where('group_id', '=', filters.groupId!))
      .$if(!!name, (qb) => qb.where('original_name', 'ilike', containsPattern(name!)));
  }

  find(fileId: number) {
    return this.db.selectFrom('file_storage').select(FILE_COLUMNS).where('file_id', '=', fileId).where('is_deleted', '=', false).executeTakeFirst();
  }

  async insert(file: FileInsert) {
    return this.db
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
      .returning(FILE_COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /** Counts a download and returns the row; undefined when missing or deleted. */
  countDownload(fileId: number) {
    return this.db
      .updateTable('file_storage')
      .set({ download_count: sql<number>`download_count + 1` })
      .where('file_id', '=', fileId)
      .where('is_deleted', '=', false)
      .returning(FILE_COLUMNS)
      .executeTakeFirst();
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

  /** UPLOAD_MAX_SIZE_MB from system_config (spec 8: 100 MB). */
  async uploadLimitMb(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('system_config')
      .select('config_value')
      .where('config_key', '=', 'UPLOAD_MAX_SIZE_MB')
      .executeTakeFirst();
    const mb = row ? Number(row.config_value) : Number.NaN;
    return Number.isFinite(mb) && mb > 0 ? mb : undefined;
  }
}

export type FileRow = NonNullable<Awaited<ReturnType<FileRepository['find']>>>;
