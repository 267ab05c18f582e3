import type { Transaction } from 'kysely';
import type { Database, Db, PermCode } from '@csp/db';

type Executor = Db | Transaction<Database>;

export interface Grant {
  menuId: number;
  permCode: PermCode;
}

/** Role deletion and the permission matrix: what the field table does not cover. */
export class RoleRepository {
  constructor(private readonly db: Db) {}

  async delete(roleId: number): Promise<void> {
    await this.db.deleteFrom('role').where('role_id', '=', roleId).execute();
  }

  /** Every menu (tree order comes from the caller) with its available permission codes. */
  menusWithPermissions() {
    return this.db
      .selectFrom('menu as m')
      .leftJoin('menu_permission as mp', 'mp.menu_id', 'm.menu_id')
      .select([
        'm.menu_id',
        'm.parent_menu_id',
        'm.menu_code',
        'm.menu_name',
        'm.menu_type',
        'm.menu_level',
        'm.sort_order',
        'm.is_active',
        'mp.perm_code',
        'mp.perm_name',
      ])
      .orderBy('m.menu_level')
      .orderBy('m.sort_order')
      .orderBy('m.menu_id')
      .orderBy('mp.sort_order')
      .orderBy('mp.perm_code')
      .execute();
  }

  async grantsOf(roleId: number, db: Executor = this.db): Promise<Grant[]> {
    const rows = await db
      .selectFrom('role_menu_permission')
      .select(['menu_id', 'perm_code'])
      .where('role_id', '=', roleId)
      .where('is_granted', '=', 'Y')
      .orderBy('menu_id')
      .orderBy('perm_code')
      .execute();
    return rows.map((r) => ({ menuId: r.menu_id, permCode: r.perm_code }));
  }

  /** The (menu, perm) pairs among `pairs` that have a menu_permission row. */
  async availablePairs(pairs: Grant[], db: Executor = this.db): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const menuIds = [...new Set(pairs.map((p) => p.menuId))];
    const rows = await db
      .selectFrom('menu_permission')
      .select(['menu_id', 'perm_code'])
      .where('menu_id', 'in', menuIds)
      .execute();
    return new Set(rows.map((r) => pairKey(r.menu_id, r.perm_code)));
  }

  async replaceGrants(roleId: number, grants: Grant[], db: Executor): Promise<void> {
    await db.deleteFrom('role_menu_permission').where('role_id', '=', roleId).execute();
    if (grants.length > 0) {
      await db
        .insertInto('role_menu_permission')
        .values(grants.map((g) => ({ role_id: roleId, menu_id: g.menuId, perm_code: g.permCode, is_granted: 'Y' as const })))
        .execute();
    }
  }
}

export function pairKey(menuId: number, permCode: string): string {
  return `${menuId}:${permCode}`;
}
