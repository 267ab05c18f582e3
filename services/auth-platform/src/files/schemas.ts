import { z } from 'zod';
import { listQuery, zId } from '@csp/service-kit';
import { zTimestamp } from '../common/schemas.js';

export const FILE_SORT = {
  fileId: 'file_id',
  originalName: 'original_name',
  fileSize: 'file_size',
  createdAt: 'created_at',
  downloadCount: 'download_count',
} as const;

const zGroupId = z.string().trim().min(1).max(100).regex(/^[\w.:-]+$/, 'may contain only letters, digits, _ . : -');

export const fileListQuery = listQuery(Object.keys(FILE_SORT) as Array<keyof typeof FILE_SORT>, {
  groupId: zGroupId.optional(),
  originalName: z.string().max(500).optional(),
});

export const uploadQuery = z.object({ groupId: zGroupId.optional() });
export const fileIdParams = z.object({ id: zId });

export const fileResp = z.object({
  fileId: z.number(),
  groupId: z.string().nullable(),
  originalName: z.string(),
  fileSize: z.number(),
  contentType: z.string().nullable(),
  downloadCount: z.number(),
  createdBy: z.number().nullable(),
  createdAt: zTimestamp,
});
