import { defineResource, invalid, isoTimestamp, zDate } from '@csp/service-kit';
import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { zQueryBool, zText } from '../common/schemas.js';

export const NOTICE_MENU = 'NOTICE';

const noticeResp = z.object({
  noticeId: z.number(),
  title: z.string(),
  content: z.string(),
  isPinned: z.boolean(),
  isActive: z.boolean(),
  viewCount: z.number(),
  postFrom: z.string().nullable(),
  postTo: z.string().nullable(),
  createdBy: z.number().nullable(),
  updatedBy: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const noticeSave = z.object({
  title: zText(200),
  content: z.string().min(1, 'is required').max(100_000),
  isPinned: z.boolean().optional(),
  isActive: z.boolean().optional(),
  postFrom: zDate.nullish(),
  postTo: zDate.nullish(),
});

type NoticeRow = {
  notice_id: number;
  title: string;
  content: string;
  is_pinned: boolean;
  is_active: boolean;
  view_count: number;
  post_from: string | null;
  post_to: string | null;
  created_by: number | null;
  updated_by: number | null;
  created_at: Date;
  updated_at: Date;
};

/** Notices: plain CRUD through the kit; pinned notices come first in every list. */
export const noticeResource = defineResource({
  name: 'Notice',
  basePath: '/api/notices',
  table: 'notice',
  idColumn: 'notice_id',
  menu: NOTICE_MENU,
  tags: ['notices'],
  columns: [
    'notice_id',
    'title',
    'content',
    'is_pinned',
    'is_active',
    'view_count',
    'post_from',
    'post_to',
    'created_by',
    'updated_by',
    'created_at',
    'updated_at',
  ],
  respSchema: noticeResp,
  toResp: (r: NoticeRow) => ({
    noticeId: r.notice_id,
    title: r.title,
    content: r.content,
    isPinned: r.is_pinned,
    isActive: r.is_active,
    viewCount: r.view_count,
    postFrom: r.post_from,
    postTo: r.post_to,
    createdBy: r.created_by,
    updatedBy: r.updated_by,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: noticeSave,
  validate: (body) => {
    if (body.postFrom && body.postTo && body.postFrom > body.postTo) throw invalid('postTo', 'must not be before postFrom');
  },
  toInsert: (b, ctx) => ({
    title: b.title,
    content: b.content,
    is_pinned: b.isPinned ?? false,
    is_active: b.isActive ?? true,
    post_from: b.postFrom ?? null,
    post_to: b.postTo ?? null,
    created_by: ctx.userId,
    updated_by: ctx.userId,
  }),
  toUpdate: (b, ctx) => ({
    title: b.title,
    content: b.content,
    is_pinned: b.isPinned,
    is_active: b.isActive,
    post_from: b.postFrom,
    post_to: b.postTo,
    updated_by: ctx.userId,
    updated_at: sql`now()`,
  }),
  filters: {
    shape: {
      title: z.string().max(200).optional(),
      isActive: zQueryBool.optional(),
      isPinned: zQueryBool.optional(),
      /** Only notices posted on that day (post window contains it). */
      postedOn: zDate.optional(),
    },
    apply: (qb, q) => {
      let out = qb;
      if (q.title) out = out.where(sql<SqlBool>`title ilike ${`%${q.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
      if (q.isActive !== undefined) out = out.where('is_active', '=', q.isActive);
      if (q.isPinned !== undefined) out = out.where('is_pinned', '=', q.isPinned);
      if (q.postedOn) {
        out = out.where(
          sql<SqlBool>`(post_from is null or post_from <= ${q.postedOn}::date) and (post_to is null or post_to >= ${q.postedOn}::date)`,
        );
      }
      return out;
    },
  },
  sortable: { noticeId: 'notice_id', title: 'title', createdAt: 'created_at', viewCount: 'view_count' },
  defaultSort: 'notice_id desc',
  searchable: { title: 'title', content: 'content' },
  dateColumn: 'created_at',
  baseQuery: (db) => db.selectFrom('notice').orderBy('is_pinned', 'desc'),
});
