import type { Db, PermCode } from '@csp/db';
import { AppError, invalid, isoTimestamp, notFound } from '@csp/service-kit';
import { treeOrder } from '../menus/tree.js';
import { pairKey, type Grant, type RoleRepository, type RoleRow, type RoleWrite } from './repository.js';

/** SUPER_ADMIN holds every permission by definition (spec 5.4); its matrix is not editable. */
export const SUPER_ADMIN = 'SUPER_ADMIN';

export function toRoleResp(row: RoleRow) {
  return {
    roleId: row.role_id,
    roleCode: row.role_code,
    roleName: row.role_name,
    roleDesc: row.role_desc,
    roleLevel: row.role_level,
    isSystem: row.is_system,
    isActive: row.is_active,
    userCount: row.user_count,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

export interface MatrixPermission {
  permCode: PermCode;
  permName: string;
  granted: boolean;
}

export interface MatrixMenu {
  menuId: number;
  parentMenuId: number | null;
  menuCode: string;
  menuName: string;
  menuType: string;
  menuLevel: number;
  sortOrder: number;
  isActive: boolean;
  permissions: MatrixPermission[];
}

export class RoleService {
  constructor(
    private readonly repo: RoleRepository,
    private readonly db: Db,
  ) {}

  async get(roleId: number): Promise<RoleRow> {
    const row = await this.repo.findById(roleId);
    if (!row) throw notFound(`Role ${roleId}`);
    return row;
  }

  async update(roleId: number, values: RoleWrite, actorId: number | null) {
    const before = await this.get(roleId);
    await this.repo.update(roleId, values, actorId);
    return { before: toRoleResp(before), after: toRoleResp(await this.get(roleId)) };
  }

  /** System roles cannot be deleted (B008); a role still assigned to users is refused (E400). */
  async delete(roleId: number) {
    const before = await this.get(roleId);
    if (before.is_system === 'Y') throw new AppError('SYSTEM_CODE_LOCKED', `System role ${before.role_code} cannot be deleted`);
    if (before.user_count > 0) {
      throw new AppError('BAD_REQUEST', `Role ${before.role_code} is assigned to ${before.user_count} user(s)`);
    }
    await this.repo.delete(roleId);
    return { before: toRoleResp(before) };
  }

  /** Every menu in tree order with its available permission codes and whether the role holds them. */
  async matrix(roleId: number) {
    const role = await this.get(roleId);
    const granted = new Set((await this.repo.grantsOf(roleId)).map((g) => pairKey(g.menuId, g.permCode)));
    const byId = new Map<number, MatrixMenu>();
    for (const row of await this.repo.menusWithPermissions()) {
      let menu = byId.get(row.menu_id);
      if (!menu) {
        menu = {
          menuId: row.menu_id,
          parentMenuId: row.parent_menu_id,
          menuCode: row.menu_code,
          menuName: row.menu_name,
          menuType: row.menu_type,
          menuLevel: row.menu_level,
          sortOrder: row.sort_order,
          isActive: row.is_active,
          permissions: [],
        };
        byId.set(row.menu_id, menu);
      }
      if (row.perm_code) {
        menu.permissions.push({
          permCode: row.perm_code,
          permName: row.perm_name ?? row.perm_code,
          granted: granted.has(pairKey(row.menu_id, row.perm_code)),
        });
      }
    }
    return { roleId: role.role_id, roleCode: role.role_code, roleName: role.role_name, menus: treeOrder([...byId.values()]) };
  }

  /**
   * Replaces the role's whole grant set with the entries marked granted. Every entry must name an
   * existing menu_permission row (E411 otherwise). Returns before/after for the change log.
   */
  async replaceGrants(roleId: number, entries: Array<Grant & { granted: boolean }>) {
    const role = await this.get(roleId);
    if (role.role_code === SUPER_ADMIN) {
      throw new AppError('SYSTEM_CODE_LOCKED', 'SUPER_ADMIN holds every permission; its grants cannot be edited');
    }
    return this.db.transaction().execute(async (trx) => {
      const available = await this.repo.availablePairs(entries, trx);
      entries.forEach((e, i) => {
        if (!available.has(pairKey(e.menuId, e.permCode))) {
          throw invalid(`grants.${i}`, `menu ${e.menuId} has no permission ${e.permCode}`);
        }
      });
      // Later entries win when the same pair is listed twice.
      const wanted = new Map<string, Grant & { granted: boolean }>();
      for (const e of entries) wanted.set(pairKey(e.menuId, e.permCode), e);
      const grants = [...wanted.values()].filter((e) => e.granted).map(({ menuId, permCode }) => ({ menuId, permCode }));
      const before = await this.repo.grantsOf(roleId, trx);
      await this.repo.replaceGrants(roleId, grants, trx);
      return { before: { grants: before }, after: { grants } };
    });
  }
}
