import { z } from 'zod';
import { listQuery, zId } from '@csp/service-kit';
import { PERM_CODES } from '../menus/service.js';
import { zOptionalText, zQueryBool, zText, zTimestamp } from '../common/schemas.js';

export const ROLE_SORT = {
  roleId: 'role.role_id',
  roleCode: 'role.role_code',
  roleName: 'role.role_name',
  roleLevel: 'role.role_level',
  createdAt: 'role.created_at',
} as const;

export const roleListQuery = listQuery(Object.keys(ROLE_SORT) as Array<keyof typeof ROLE_SORT>, {
  roleCode: z.string().max(30).optional(),
  roleName: z.string().max(100).optional(),
  isActive: zQueryBool.optional(),
});

export const roleIdParams = z.object({ id: zId });

export const roleResp = z.object({
  roleId: z.number(),
  roleCode: z.string(),
  roleName: z.string(),
  roleDesc: z.string().nullable(),
  roleLevel: z.number(),
  isSystem: z.enum(['Y', 'N']),
  isActive: z.boolean(),
  userCount: z.number(),
  createdAt: zTimestamp,
  updatedAt: zTimestamp,
});

export const roleCreateBody = z.object({
  roleCode: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Z0-9_]{1,29}$/, 'must be 2-30 upper-case letters, digits or _ starting with a letter'),
  roleName: zText(100),
  roleDesc: zOptionalText(500),
  roleLevel: z.number().int().min(0).max(1000).optional(),
  isActive: z.boolean().optional(),
});

/** The role code is the key other data refers to: it is fixed after creation. */
export const roleUpdateBody = z.object({
  roleName: zText(100).optional(),
  roleDesc: zOptionalText(500),
  roleLevel: z.number().int().min(0).max(1000).optional(),
  isActive: z.boolean().optional(),
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

export const idResult = z.object({ id: z.number() });
