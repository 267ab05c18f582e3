import { z } from 'zod';
import { listQuery, zId } from '@csp/service-kit';
import { zOptionalText, zQueryBool, zText, zTimestamp } from '../common/schemas.js';
import { PERM_CODES } from './service.js';

const zPermCode = z.enum(PERM_CODES);
const zMenuType = z.enum(['DIRECTORY', 'PAGE', 'LINK']);

export const MENU_SORT = {
  menuId: 'menu.menu_id',
  menuCode: 'menu.menu_code',
  menuName: 'menu.menu_name',
  menuLevel: 'menu.menu_level',
  sortOrder: 'menu.sort_order',
} as const;

export const menuListQuery = listQuery(Object.keys(MENU_SORT) as Array<keyof typeof MENU_SORT>, {
  menuCode: z.string().max(50).optional(),
  menuName: z.string().max(100).optional(),
  menuType: zMenuType.optional(),
  parentMenuId: zId.optional(),
  isActive: zQueryBool.optional(),
});

export const menuIdParams = z.object({ id: zId });

const nodeFields = {
  menuId: z.number(),
  parentMenuId: z.number().nullable(),
  menuCode: z.string(),
  menuName: z.string(),
  menuType: z.string(),
  menuPath: z.string().nullable(),
  menuIcon: z.string().nullable(),
  sortOrder: z.number(),
  isVisible: z.boolean(),
  permissions: z.array(zPermCode),
};

interface MyNode {
  menuId: number;
  parentMenuId: number | null;
  menuCode: string;
  menuName: string;
  menuType: string;
  menuPath: string | null;
  menuIcon: string | null;
  sortOrder: number;
  isVisible: boolean;
  permissions: Array<(typeof PERM_CODES)[number]>;
  children: MyNode[];
}

export const myMenuNode: z.ZodType<MyNode> = z.object({
  ...nodeFields,
  get children() {
    return z.array(myMenuNode);
  },
});

interface FullNode extends Omit<MyNode, 'children'> {
  isActive: boolean;
  menuLevel: number;
  componentPath: string | null;
  children: FullNode[];
}

export const fullMenuNode: z.ZodType<FullNode> = z.object({
  ...nodeFields,
  isActive: z.boolean(),
  menuLevel: z.number(),
  componentPath: z.string().nullable(),
  get children() {
    return z.array(fullMenuNode);
  },
});

const menuFields = {
  menuId: z.number(),
  parentMenuId: z.number().nullable(),
  menuCode: z.string(),
  menuName: z.string(),
  menuType: z.string(),
  menuPath: z.string().nullable(),
  menuIcon: z.string().nullable(),
  componentPath: z.string().nullable(),
  menuLevel: z.number(),
  sortOrder: z.number(),
  isVisible: z.boolean(),
  isActive: z.boolean(),
  description: z.string().nullable(),
  permissions: z.array(zPermCode),
  createdAt: zTimestamp,
  updatedAt: zTimestamp,
};

export const menuResp = z.object(menuFields);

export const menuDetail = z.object({
  ...menuFields,
  permissionDetails: z.array(z.object({ permCode: zPermCode, permName: z.string(), sortOrder: z.number() })),
});

const zPermissions = z
  .array(z.union([zPermCode, z.object({ permCode: zPermCode, permName: zText(50).optional() })]))
  .max(PERM_CODES.length * 2);

const writable = {
  parentMenuId: zId.nullish(),
  menuName: zText(100),
  menuType: zMenuType,
  menuPath: zOptionalText(200),
  menuIcon: zOptionalText(50),
  componentPath: zOptionalText(200),
  sortOrder: z.number().int().min(0).max(100000).optional(),
  isVisible: z.boolean().optional(),
  isActive: z.boolean().optional(),
  description: zOptionalText(500),
};

const zMenuCode = z
  .string()
  .trim()
  .regex(/^[A-Z][A-Z0-9_]{1,49}$/, 'must be 2-50 upper-case letters, digits or _ starting with a letter');

export const menuCreateBody = z.object({ ...writable, menuCode: zMenuCode, permissions: zPermissions.optional() });

/** Omitted fields stay; `permissions`, when given, becomes the menu's exact permission set. */
export const menuUpdateBody = z.object({
  ...writable,
  menuCode: zMenuCode.optional(),
  menuName: writable.menuName.optional(),
  menuType: writable.menuType.optional(),
  permissions: zPermissions.optional(),
});

export const idResult = z.object({ id: z.number() });
