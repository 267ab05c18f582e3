import { sql } from 'kysely';
import { z } from 'zod';
import { PERM_CODES, YN_VALUES } from '@csp/db';
import { defineResource, f, zId } from '@csp/service-kit';
import { optionalText } from '../common/fields.js';

export const ROLE_MENU = 'SYSTEM_ROLE';

/**
 * Roles (menu SYSTEM_ROLE): list, detail and create through the kit. The role code is the key other
 * data refers to, so it is fixed after creation. Update (partial), delete and the permission matrix
 * are workflows (roles.routes.ts).
 */
export const roleResource = defineResource({
  name: 'Role',
  path: '/api/roles',
  table: 'role',
  alias: 'r',
  menu: ROLE_MENU,
  tags: ['roles'],
  fields: {
    roleId: f.id(),
    roleCode: f
      .text({ max: 30, pattern: /^[A-Z][A-Z0-9_]{1,29}$/, patternMessage: 'must be 2-30 upper-case letters, digits or _ starting with a letter' })
      .required()
      .createOnly()
      .sort()
      .search()
      .filter('like'),
    roleName: f.text({ max: 100 }).required().sort().search().filter('like'),
    roleDesc: optionalText(500),
    roleLevel: f.int({ min: 0, max: 1000 }).save({ default: 0 }).sort(),
    isSystem: f.enum(YN_VALUES).nullable(false),
    isActive: f.bool().save({ default: true }).filter(),
    userCount: f.computed(sql`(select count(*)::int from user_role ur where ur.role_id = r.role_id)`, 'int').nullable(false),
    createdAt: f.createdAt().sort(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'roleId',
  partialUpdate: true,
  update: false,
  delete: false,
  export: false,
});

const zPermCode = z.enum(PERM_CODES);

export const matrixResp = z.object({
  roleId: z.number(),
  roleCode: z.string(),
  roleName: z.string(),
  menus: z.array(
    z.object({
      menuId: z.number(),
      parentMenuId: z.number().nullable(),
      menuCode: z.string(),
      menuName: z.string(),
      menuType: z.string(),
      menuLevel: z.number(),
      sortOrder: z.number(),
      isActive: z.boolean(),
      permissions: z.array(z.object({ permCode: zPermCode, permName: z.string(), granted: z.boolean() })),
    }),
  ),
});

export const grantsBody = z.object({
  grants: z.array(z.object({ menuId: zId, permCode: zPermCode, granted: z.boolean() })).max(5000),
});
