import type { Db, PermCode } from '@csp/db';
import { AppError, invalid, isoTimestamp, notFound } from '@csp/service-kit';
import type { MenuPermissionWrite, MenuRepository, MenuRow, MenuWrite } from './repository.js';
import { buildTree, type TreeNode } from './tree.js';

export const PERM_CODES = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'APPROVE', 'EXPORT', 'PRINT', 'EXECUTE'] as const satisfies readonly PermCode[];

const PERM_NAMES: Record<PermCode, string> = {
  READ: 'Read',
  CREATE: 'Create',
  UPDATE: 'Update',
  DELETE: 'Delete',
  APPROVE: 'Approve',
  EXPORT: 'Export',
  PRINT: 'Print',
  EXECUTE: 'Execute',
};

export type PermissionInput = PermCode | { permCode: PermCode; permName?: string | undefined };

export interface MenuNode {
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
}

export function toMenuResp(row: MenuRow) {
  return {
    menuId: row.menu_id,
    parentMenuId: row.parent_menu_id,
    menuCode: row.menu_code,
    menuName: row.menu_name,
    menuType: row.menu_type,
    menuPath: row.menu_path,
    menuIcon: row.menu_icon,
    componentPath: row.component_path,
    menuLevel: row.menu_level,
    sortOrder: row.sort_order,
    isVisible: row.is_visible,
    isActive: row.is_active,
    description: row.description,
    permissions: row.perm_codes,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

function toNode(row: MenuRow, permissions: PermCode[]): MenuNode {
  return {
    menuId: row.menu_id,
    parentMenuId: row.parent_menu_id,
    menuCode: row.menu_code,
    menuName: row.menu_name,
    menuType: row.menu_type,
    menuPath: row.menu_path,
    menuIcon: row.menu_icon,
    sortOrder: row.sort_order,
    isVisible: row.is_visible,
    permissions,
  };
}

/** Canonical order, duplicates removed, default display names. */
function normalizePermissions(input: PermissionInput[]): MenuPermissionWrite[] {
  const byCode = new Map<PermCode, string>();
  for (const p of input) {
    const code = typeof p === 'string' ? p : p.permCode;
    const name = typeof p === 'string' ? undefined : p.permName;
    byCode.set(code, name ?? byCode.get(code) ?? PERM_NAMES[code]);
  }
  return PERM_CODES.filter((c) => byCode.has(c)).map((c) => ({
    permCode: c,
    permName: byCode.get(c)!,
    sortOrder: PERM_CODES.indexOf(c) + 1,
  }));
}

export class MenuService {
  constructor(
    private readonly repo: MenuRepository,
    private readonly db: Db,
  ) {}

  /** Active menus where the user holds at least one grant, plus the directories above them. */
  async myTree(userId: number): Promise<TreeNode<MenuNode>[]> {
    const [menus, pairs] = await Promise.all([this.repo.all({ activeOnly: true }), this.repo.grantedPairs(userId)]);
    const granted = new Map<number, Set<PermCode>>();
    for (const p of pairs) {
      const set = granted.get(p.menu_id) ?? new Set<PermCode>();
      set.add(p.perm_code);
      granted.set(p.menu_id, set);
    }
    // A menu's permission order is the menu's own; only granted codes remain.
    const nodes = menus.map((m) => toNode(m, m.perm_codes.filter((c) => granted.get(m.menu_id)?.has(c))));
    return buildTree(nodes, (n) => n.permissions.length > 0 && n.menuType !== 'DIRECTORY');
  }

  /** Every menu, active or not, with all permission codes it offers. */
  async fullTree() {
    const menus = await this.repo.all({ activeOnly: false });
    return buildTree(menus.map((m) => ({ ...toNode(m, m.perm_codes), isActive: m.is_active, menuLevel: m.menu_level, componentPath: m.component_path })));
  }

  async get(menuId: number): Promise<MenuRow> {
    const row = await this.repo.findById(menuId);
    if (!row) throw notFound(`Menu ${menuId}`);
    return row;
  }

  async detail(menuId: number) {
    const row = await this.get(menuId);
    const permissions = await this.repo.permissionsOf(menuId);
    return {
      ...toMenuResp(row),
      permissionDetails: permissions.map((p) => ({ permCode: p.perm_code, permName: p.perm_name, sortOrder: p.sort_order })),
    };
  }

  async create(
    values: MenuWrite & Required<Pick<MenuWrite, 'menuCode' | 'menuName' | 'menuType'>>,
    permissions: PermissionInput[],
    actorId: number | null,
  ) {
    const menuId = await this.db.transaction().execute(async (trx) => {
      let level = 1;
      if (values.parentMenuId != null) {
        const parent = await this.repo.findById(values.parentMenuId, trx);
        if (!parent) throw invalid('parentMenuId', `menu ${values.parentMenuId} does not exist`);
        level = parent.menu_level + 1;
      }
      const id = await this.repo.insert(values, level, actorId, trx);
      await this.repo.replacePermissions(id, normalizePermissions(permissions), trx);
      return id;
    });
    return { menuId, after: toMenuResp(await this.get(menuId)) };
  }

  async update(menuId: number, values: MenuWrite, permissions: PermissionInput[] | undefined, actorId: number | null) {
    const before = await this.get(menuId);
    await this.db.transaction().execute(async (trx) => {
      if (values.parentMenuId != null && values.parentMenuId !== before.parent_menu_id) {
        const parent = await this.repo.findById(values.parentMenuId, trx);
        if (!parent) throw invalid('parentMenuId', `menu ${values.parentMenuId} does not exist`);
        if ((await this.repo.subtreeIds(menuId, trx)).has(values.parentMenuId)) {
          throw invalid('parentMenuId', 'a menu cannot be moved below itself');
        }
      }
      await this.repo.update(menuId, values, actorId, trx);
      if (values.parentMenuId !== undefined && values.parentMenuId !== before.parent_menu_id) await this.repo.recomputeLevels(trx);
      if (permissions) await this.repo.replacePermissions(menuId, normalizePermissions(permissions), trx);
    });
    return { before: toMenuResp(before), after: toMenuResp(await this.get(menuId)) };
  }

  /** Only a leaf can be deleted; its permission rows and grants go with it. */
  async delete(menuId: number) {
    const before = await this.get(menuId);
    const children = await this.repo.childCount(menuId);
    if (children > 0) throw new AppError('BAD_REQUEST', `Menu ${before.menu_code} has ${children} child menu(s)`);
    await this.repo.delete(menuId);
    return { before: toMenuResp(before) };
  }
}
