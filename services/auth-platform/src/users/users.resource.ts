import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { USER_STATUSES } from '@csp/db';
import { defineResource, f, zId } from '@csp/service-kit';
import { blankToNull } from '../common/fields.js';

export const USER_MENU = 'SYSTEM_USER';

/** '' clears the e-mail like null does; anything else must be an address. */
const emailOrBlank = (email: z.ZodType) => z.union([z.literal('').transform(() => null), email]);

/**
 * Users (menu SYSTEM_USER). The list masks phone and e-mail; the password hash is never selected.
 * Create, update, password reset, unlock and role assignment are workflows (users.routes.ts).
 */
export const userResource = defineResource({
  name: 'User',
  path: '/api/users',
  table: 'users',
  alias: 'u',
  menu: USER_MENU,
  tags: ['users'],
  fields: {
    userId: f.id(),
    loginId: f
      .text({ max: 50, pattern: /^[A-Za-z0-9._@-]{3,50}$/, patternMessage: 'must be 3-50 letters, digits or . _ @ -' })
      .required()
      .createOnly()
      .sort()
      .search()
      .filter('like'),
    userName: f.text({ max: 100 }).required().sort().search().filter('like'),
    agentId: f.ref().save().filter(),
    email: f.email().save().refine(emailOrBlank).masked('email'),
    phone: f
      .text({ max: 30, pattern: /^[0-9+\-() ]{0,30}$/, patternMessage: 'must be a phone number' })
      .save()
      .refine(blankToNull)
      .masked('phone'),
    status: f.enum(USER_STATUSES).save({ default: 'ACTIVE' }).sort(),
    failCount: f.int().nullable(false),
    lastLoginAt: f.timestamp().sort(),
    passwordChangedAt: f.timestamp(),
    roleCodes: f
      .computed(
        sql`coalesce((select array_agg(r.role_code::text order by r.role_id) from user_role ur
          join role r on r.role_id = ur.role_id where ur.user_id = u.user_id), '{}')`,
        'json',
        z.array(z.string()),
      )
      .nullable(false),
    createdAt: f.createdAt().sort(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  statusField: 'status',
  filters: {
    shape: { roleCode: z.string().max(30).optional() },
    apply: (qb, q) =>
      q.roleCode
        ? qb.where(
            sql<SqlBool>`exists (select 1 from user_role ur join role r on r.role_id = ur.role_id
              where ur.user_id = u.user_id and r.role_code = ${q.roleCode})`,
          )
        : qb,
  },
  partialUpdate: true,
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: false,
});

/** Create: the saved fields plus the initial password and roles. */
export const userCreateBody = z.object({
  ...userResource.schemas.save.shape,
  password: z.string().min(1, 'is required').max(200),
  roleIds: z.array(zId).max(50).optional(),
});

export const userDetail = z.object({
  ...userResource.schemas.response.shape,
  roles: z.array(z.object({ roleId: z.number(), roleCode: z.string(), roleName: z.string() })),
});
