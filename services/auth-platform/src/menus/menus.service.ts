import type { FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import { PERM_CODES, type Database, type PermCode } from '@csp/db';
import { AppError, invalid, notFound, type AnyRow, type ServiceApp } from '@csp/service-kit';
import { findRow, writeContext } from '../common/resource-rows.js';
import type { MenuPermissionWrite, MenuRepository, TreeRow } from './menus.repository.js';
import { menuResource } from './menus.resource.js';
import { buildTree, type TreeNode } from './tree.js';

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

function toNode(row: TreeRow, permissions: PermCode[]): MenuNode {
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
    private readonly app: ServiceApp,
    private readonly repo: MenuRepository,
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

  private async row(menuId: number, db: Parameters<typeof findRow>[1] = this.app.db): Promise<AnyRow> {
    const row = await findRow(menuResource, db, menuId);
    if (!row) throw notFound(`Menu ${menuId}`);
    return row;
  }

  async get(menuId: number) {
    return menuResource.toResp(await this.row(menuId), this.app.cipher);
  }

  async detail(menuId: number) {
    const menu = await this.get(menuId);
    const permissions = await this.repo.permissionsOf(menuId);
    return { ...menu, permissionDetails: permissions.map((p) => ({ permCode: p.perm_code, permName: p.perm_name, sortOrder: p.sort_order })) };
  }

  async create(request: FastifyRequest, body: AnyRow, permissions: PermissionInput[]) {
    const menuId = await this.app.db.transaction().execute(async (trx) => {
      let level = 1;
      if (body.parentMenuId != null) {
        const parent = await findRow(menuResource, trx, body.parentMenuId);
        if (!parent) throw invalid('parentMenuId', `menu ${body.parentMenuId} does not exist`);
        level = parent.menuLevel + 1;
      }
      const values = await menuResource.toInsert(body, writeContext(this.app, request, trx));
      const row = await trx
        .insertInto('menu')
        .values({ ...(values as Insertable<Database['menu']>), menu_level: level })
        .returning('menu_id')
        .executeTakeFirstOrThrow();
      await this.repo.replacePermissions(row.menu_id, normalizePermissions(permissions), trx);
      return row.menu_id;
    });
    return { menuId, after: await this.get(menuId) };
  }

  /** Omitted fields stay; a new parent re-levels the tree; `permissions`, when given, replace the set. */
  async update(request: FastifyRequest, menuId: number, body: AnyRow, permissions: PermissionInput[] | undefined) {
    const existing = await this.row(menuId);
    await this.app.db.transaction().execute(async (trx) => {
      const moved = body.parentMenuId !== undefined && body.parentMenuId !== existing.parentMenuId;
      if (moved && body.parentMenuId !== null) {
        if (!(await findRow(menuResource, trx, body.parentMenuId))) throw invalid('parentMenuId', `menu ${body.parentMenuId} does not exist`);
        if ((await this.repo.subtreeIds(menuId, trx)).has(body.parentMenuId)) {
          throw invalid('parentMenuId', 'a menu cannot be moved below itself');
        }
      }
      const values = await menuResource.toUpdate(body, writeContext(this.app, request, trx), existing);
      await trx.updateTable('menu').set(values).where('menu_id', '=', menuId).execute();
      if (moved) await this.repo.recomputeLevels(trx);
      if (permissions) await this.repo.replacePermissions(menuId, normalizePermissions(permissions), trx);
    });
    return { before: menuResource.toResp(existing, this.app.cipher), after: await this.get(menuId) };
  }

  /** Only a leaf can be deleted; its permission rows and grants go with it. */
  async delete(menuId: number) {
    const before = await this.get(menuId);
    const children = await this.repo.childCount(menuId);
    if (children > 0) throw new AppError('BAD_REQUEST', `Menu ${before.menuCode} has ${children} child menu(s)`);
    await this.repo.delete(menuId);
    return { before };
  }
}
