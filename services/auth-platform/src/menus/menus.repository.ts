import { sql, type Transaction } from 'kysely';
import type { Database, Db, PermCode } from '@csp/db';

type Executor = Db | Transaction<Database>;

export interface MenuPermissionWrite {
  permCode: PermCode;
  permName: string;
  sortOrder: number;
}

/** The menu's permission codes in their display order. */
const permCodes = sql<PermCode[]>`coalesce((select array_agg(mp.perm_code::text order by mp.sort_order, mp.menu_perm_id)
  from menu_permission mp where mp.menu_id = menu.menu_id), '{}')`;

export class MenuRepository {
  constructor(private readonly db: Db) {}

  /** Every menu (optionally only active ones) with its available permission codes: what the trees show. */
  all(options: { activeOnly: boolean }) {
    return this.db
      .selectFrom('menu')
      .select([
        'menu.menu_id',
        'menu.parent_menu_id',
        'menu.menu_code',
        'menu.menu_name',
        'menu.menu_type',
        'menu.menu_path',
        'menu.menu_icon',
        'menu.component_path',
        'menu.menu_level',
        'menu.sort_order',
        'menu.is_visible',
        'menu.is_active',
      ])
      .select(permCodes.as('perm_codes'))
      .$if(options.activeOnly, (qb) => qb.where('menu.is_active', '=', true))
      .execute();
  }

  /**
   * The (menu, perm) pairs the user holds through active roles; a grant without its menu_permission
   * row does not count (spec 5.4).
   */
  grantedPairs(userId: number) {
    return this.db
      .selectFrom('user_role as ur')
      .innerJoin('role as r', 'r.role_id', 'ur.role_id')
      .innerJoin('role_menu_permission as rmp', 'rmp.role_id', 'ur.role_id')
      .innerJoin('menu_permission as mp', (join) =>
        join.onRef('mp.menu_id', '=', 'rmp.menu_id').onRef('mp.perm_code', '=', 'rmp.perm_code'),
      )
      .select(['rmp.menu_id', 'rmp.perm_code'])
      .distinct()
      .where('ur.user_id', '=', userId)
      .where('r.is_active', '=', true)
      .where('rmp.is_granted', '=', 'Y')
      .execute();
  }

  permissionsOf(menuId: number, db: Executor = this.db) {
    return db
      .selectFrom('menu_permission')
      .select(['perm_code', 'perm_name', 'sort_order'])
      .where('menu_id', '=', menuId)
      .orderBy('sort_order')
      .orderBy('menu_perm_id')
      .execute();
  }

  /** menu_level = depth from the root (1 at the top), recomputed for the whole (small) menu table. */
  async recomputeLevels(db: Executor): Promise<void> {
    await sql`
      WITH RECURSIVE t AS (
        SELECT menu_id, 1 AS lvl FROM menu WHERE parent_menu_id IS NULL
        UNION ALL
        SELECT m.menu_id, t.lvl + 1 FROM menu m JOIN t ON m.parent_menu_id = t.menu_id
      )
      UPDATE menu SET menu_level = t.lvl FROM t WHERE menu.menu_id = t.menu_id AND menu.menu_level <> t.lvl`.execute(db);
  }

  /** Ids of the menu and everything below it. */
  async subtreeIds(menuId: number, db: Executor = this.db): Promise<Set<number>> {
    const result = await sql<{ menu_id: number }>`
      WITH RECURSIVE t AS (
        SELECT menu_id FROM menu WHERE menu_id = ${menuId}
        UNION
        SELECT m.menu_id FROM menu m JOIN t ON m.parent_menu_id = t.menu_id
      ) SELECT menu_id FROM t`.execute(db);
    return new Set(result.rows.map((r) => Number(r.menu_id)));
  }

  async childCount(menuId: number): Promise<number> {
    const row = await this.db
      .selectFrom('menu')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('parent_menu_id', '=', menuId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Makes the menu's permission rows exactly `permissions`. Grants of removed codes go too (no role
   * can hold a permission the menu no longer offers); new codes are granted to SUPER_ADMIN, which
   * holds every menu permission (spec 5.4).
   */
  async replacePermissions(menuId: number, permissions: MenuPermissionWrite[], db: Executor): Promise<void> {
    const codes = permissions.map((p) => p.permCode);
    await db
      .deleteFrom('role_menu_permission')
      .where('menu_id', '=', menuId)
      .$if(codes.length > 0, (qb) => qb.where('perm_code', 'not in', codes))
      .execute();
    await db
      .deleteFrom('menu_permission')
      .where('menu_id', '=', menuId)
      .$if(codes.length > 0, (qb) => qb.where('perm_code', 'not in', codes))
      .execute();
    if (permissions.length === 0) return;
    await db
      .insertInto('menu_permission')
      .values(permissions.map((p) => ({ menu_id: menuId, perm_code: p.permCode, perm_name: p.permName, sort_order: p.sortOrder })))
      .onConflict((oc) =>
        oc.columns(['menu_id', 'perm_code']).doUpdateSet((eb) => ({
          perm_name: eb.ref('excluded.perm_name'),
          sort_order: eb.ref('excluded.sort_order'),
        })),
      )
      .execute();
    await sql`
      INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
      SELECT r.role_id, ${menuId}, p.code, 'Y'
      FROM role r CROSS JOIN unnest(${codes}::text[]) AS p(code)
      WHERE r.role_code = 'SUPER_ADMIN'
      ON CONFLICT (role_id, menu_id, perm_code) DO UPDATE SET is_granted = 'Y'`.execute(db);
  }

  async delete(menuId: number): Promise<void> {
    await this.db.deleteFrom('menu').where('menu_id', '=', menuId).execute();
  }
}

export type TreeRow = Awaited<ReturnType<MenuRepository['all']>>[number];
