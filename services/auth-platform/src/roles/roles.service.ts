import type { FastifyRequest } from 'fastify';
import type { PermCode } from '@csp/db';
import { AppError, invalid, notFound, type AnyRow, type ServiceApp } from '@csp/service-kit';
import { findRow, writeContext } from '../common/resource-rows.js';
import { treeOrder } from '../menus/tree.js';
import { pairKey, type Grant, type RoleRepository } from './roles.repository.js';
import { roleResource } from './roles.resource.js';

/** SUPER_ADMIN holds every permission by definition (spec 5.4); its matrix is not editable. */
export const SUPER_ADMIN = 'SUPER_ADMIN';

export interface MatrixMenu {
  menuId: number;
  parentMenuId: number | null;
  menuCode: string;
  menuName: string;
  menuType: string;
  menuLevel: number;
  sortOrder: number;
  isActive: boolean;
  permissions: Array<{ permCode: PermCode; permName: string; granted: boolean }>;
}

export class RoleService {
  constructor(
    private readonly app: ServiceApp,
    private readonly repo: RoleRepository,
  ) {}

  async get(roleId: number) {
    const row = await findRow(roleResource, this.app.db, roleId);
    if (!row) throw notFound(`Role ${roleId}`);
    return roleResource.toResp(row, this.app.cipher);
  }

  /** Omitted fields keep their value; the role code never changes. */
  async update(request: FastifyRequest, roleId: number, body: AnyRow) {
    const before = await this.get(roleId);
    await this.app.db.transaction().execute(async (trx) => {
      const values = await roleResource.toUpdate(body, writeContext(this.app, request, trx), before);
      await trx.updateTable('role').set(values).where('role_id', '=', roleId).execute();
    });
    return { before, after: await this.get(roleId) };
  }

  /** System roles cannot be deleted (B008); a role still assigned to users is refused (E400). */
  async delete(roleId: number) {
    const before = await this.get(roleId);
    if (before.isSystem === 'Y') throw new AppError('SYSTEM_CODE_LOCKED', `System role ${before.roleCode} cannot be deleted`);
    if (before.userCount) throw new AppError('BAD_REQUEST', `Role ${before.roleCode} is assigned to ${before.userCount} user(s)`);
    await this.repo.delete(roleId);
    return { before };
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
    return { roleId, roleCode: role.roleCode!, roleName: role.roleName!, menus: treeOrder([...byId.values()]) };
  }

  /**
   * Replaces the role's whole grant set with the entries marked granted. Every entry must name an
   * existing menu_permission row (E411 otherwise). Returns before/after for the change log.
   */
  async replaceGrants(roleId: number, entries: Array<Grant & { granted: boolean }>) {
    const role = await this.get(roleId);
    if (role.roleCode === SUPER_ADMIN) {
      throw new AppError('SYSTEM_CODE_LOCKED', 'SUPER_ADMIN holds every permission; its grants cannot be edited');
    }
    return this.app.db.transaction().execute(async (trx) => {
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
