import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { defineResource, f } from '@csp/service-kit';

export const FILE_MENU = 'ATTACHMENT';

const GROUP_ID = /^[\w.:-]+$/;

/**
 * Stored files (menu ATTACHMENT): the list through the kit, logically deleted files excluded; upload,
 * download and delete are workflows (files.routes.ts). Storage paths never leave the service.
 */
export const fileResource = defineResource({
  name: 'File',
  path: '/api/files',
  table: 'file_storage',
  alias: 'fs',
  menu: FILE_MENU,
  tags: ['files'],
  fields: {
    fileId: f.id(),
    groupId: f.text({ max: 100 }).filter(),
    originalName: f.text({ max: 500 }).nullable(false).sort().search().filter('like'),
    fileSize: f.int().sort().nullable(false),
    contentType: f.text(),
    downloadCount: f.int().sort().nullable(false),
    createdBy: f.createdBy(),
    createdAt: f.createdAt().sort(),
  },
  baseQuery: (db) => db.selectFrom('file_storage as fs').where(sql<SqlBool>`not fs.is_deleted`),
  defaultSort: 'fileId',
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: false,
});

export const groupIdQuery = z.string().trim().min(1).max(100).regex(GROUP_ID, 'may contain only letters, digits, _ . : -');
