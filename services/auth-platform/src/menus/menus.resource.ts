import { sql } from 'kysely';
import { z } from 'zod';
import { MENU_TYPES, PERM_CODES, type PermCode } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import { optionalText } from '../common/fields.js';

export const MENU_MENU = 'SYSTEM_MENU';

const zPermCode = z.enum(PERM_CODES);

/**
 * Menus (menu SYSTEM_MENU): the flat list through the kit; the trees, the detail with its permission
 * rows and the writes (levels, permission sets, SUPER_ADMIN grants) are workflows (menus.routes.ts).
 */
export const menuResource = defineResource({
  name: 'Menu',
  path: '/api/menus',
  table: 'menu',
  alias: 'menu',
  menu: MENU_MENU,
  tags: ['menus'],
  fields: {
    menuId: f.id(),
    parentMenuId: f.ref().save().filter(),
    menuCode: f
      .text({ max: 50, pattern: /^[A-Z][A-Z0-9_]{1,49}$/, patternMessage: 'must be 2-50 upper-case letters, digits or _ starting with a letter' })
      .required()
      .sort()
      .search()
      .filter('like'),
    menuName: f.text({ max: 100 }).required().sort().search().filter('like'),
    menuType: f.enum(MENU_TYPES).required().filter(),
    menuPath: optionalText(200),
    menuIcon: optionalText(50),
    componentPath: optionalText(200),
    menuLevel: f.int().sort().nullable(false),
    sortOrder: f.int({ min: 0, max: 100000 }).save({ default: 0 }).sort(),
    isVisible: f.bool().save({ default: true }),
    isActive: f.bool().save({ default: true }).filter(),
    description: optionalText(500),
    /** The menu's permission codes in their display order. */
    permissions: f
      .computed(
        sql`coalesce((select array_agg(mp.perm_code::text order by mp.sort_order, mp.menu_perm_id)
          from menu_permission mp where mp.menu_id = menu.menu_id), '{}')`,
        'json',
        z.array(zPermCode),
      )
      .nullable(false),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'menuId',
  partialUpdate: true,
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: false,
});

const permissionsInput = z
  .array(z.union([zPermCode, z.object({ permCode: zPermCode, permName: z.string().trim().min(1).max(50).optional() })]))
  .max(PERM_CODES.length * 2);

export const menuCreateBody = z.object({ ...menuResource.schemas.save.shape, permissions: permissionsInput.optional() });
/** Omitted fields stay; `permissions`, when given, becomes the menu's exact permission set. */
export const menuUpdateBody = z.object({ ...menuResource.schemas.update.shape, permissions: permissionsInput.optional() });

export const menuDetail = z.object({
  ...menuResource.schemas.response.shape,
  permissionDetails: z.array(z.object({ permCode: zPermCode, permName: z.string(), sortOrder: z.number() })),
});

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
  permissions: PermCode[];
  children: MyNode[];
}

/**
 * Recursive trees are declared as named OpenAPI components (`.meta({ id })`): the schema generator
 * then emits `#/components/schemas/MyMenuNode` and refers to it from the node's own `children`,
 * instead of an anonymous `$ref` to a component it never writes.
 */
export const myMenuNode: z.ZodType<MyNode> = z
  .object({
    ...nodeFields,
    get children() {
      return z.array(myMenuNode);
    },
  })
  .meta({ id: 'MyMenuNode' });

interface FullNode extends Omit<MyNode, 'children'> {
  isActive: boolean;
  menuLevel: number;
  componentPath: string | null;
  children: FullNode[];
}

export const fullMenuNode: z.ZodType<FullNode> = z
  .object({
    ...nodeFields,
    isActive: z.boolean(),
    menuLevel: z.number(),
    componentPath: z.string().nullable(),
    get children() {
      return z.array(fullMenuNode);
    },
  })
  .meta({ id: 'MenuTreeNode' });
