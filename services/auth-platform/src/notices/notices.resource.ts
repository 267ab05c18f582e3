import { sql, type SqlBool } from 'kysely';
import { defineResource, f, invalid, zDate } from '@csp/service-kit';

export const NOTICE_MENU = 'NOTICE';

/** Notices: plain CRUD through the kit; pinned notices come first in every list. */
export const noticeResource = defineResource({
  name: 'Notice',
  path: '/api/notices',
  table: 'notice',
  alias: 'n',
  menu: NOTICE_MENU,
  tags: ['notices'],
  fields: {
    noticeId: f.id(),
    title: f.text({ max: 200 }).required().sort().search().filter('like'),
    content: f.text({ max: 100_000 }).required().search(),
    isPinned: f.bool().save({ default: false }).filter(),
    isActive: f.bool().save({ default: true }).filter(),
    viewCount: f.int().sort().nullable(false),
    postFrom: f.date().save(),
    postTo: f.date().save(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
    createdAt: f.createdAt().sort(),
    updatedAt: f.updatedAt(),
  },
  baseQuery: (db) => db.selectFrom('notice as n').orderBy('n.is_pinned', 'desc'),
  dateFilter: 'createdAt',
  filters: {
    /** Only notices posted on that day (the post window contains it). */
    shape: { postedOn: zDate.optional() },
    apply: (qb, q) =>
      q.postedOn
        ? qb.where(sql<SqlBool>`(n.post_from is null or n.post_from <= ${q.postedOn}::date) and (n.post_to is null or n.post_to >= ${q.postedOn}::date)`)
        : qb,
  },
  validate: (body) => {
    if (body.postFrom && body.postTo && body.postFrom > body.postTo) throw invalid('postTo', 'must not be before postFrom');
  },
  // Omitted fields keep their value.
  partialUpdate: true,
});
