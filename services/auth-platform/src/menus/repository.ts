import { sql, type Transaction } from 'kysely';
import type { Database, Db, PermCode } from '@csp/db';
import { containsPattern } from '../common/date-range.js';

type Executor = Db | Transaction<Database>;

export type MenuType = 'DIRECTORY' | 'PAGE' | 'LINK';

export interface MenuFilters {
  menuCode?: string | undefined;
  menuName?: string | undefined;
  menuType?: MenuType | undefined;
  parentMenuId?: number | undefined;
  isActive?: boolean | undefined;
  searchKeyword?: string | undefined;
}

export interface MenuWrite {
  parentMenuId?: number | null | undefined;
  menuCode?: string | undefined;
  menuName?: string | undefined;
  menuType?: MenuType | undefined;
  menuPath?: string | null | undefined;
  menuIcon?: string | null | undefined;
  componentPath?: string | null | undefined;
  sortOrder?: number | undefined;
  isVisible?: boolean | undefined;
  isActive?: boolean | undefined;
  description?: string | null | undefined;
}

export interface MenuPermissionWrite {
  permCode: PermCode;
  permName: string;
  sortOrder: number;
}

const MENU_COLUMNS = [
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
  'menu.description',
  'menu.created_at',
  'menu.updated_at',
] as const;

/** The menu's permission codes in their display order. */
const permCodes = sql<PermCode[]>`coalesce((select array_agg(mp.perm_code::text order by mp.sort_order, mp.menu_perm_id)
  from menu_permission mp where mp.menu_id = menu.menu_id), '{}')`;

export class MenuRepository {
  constructor(private readonly db: Db) {}

  /** Every menu (optionally only active ones) with its available permission codes. */
  all(options: { activeOnly: boolean }) {
    return this.db
      .selectFrom('menu')
      .select(MENU_COLUMNS)
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

  listQuery(filters: MenuFilters) {
    const keyword = filters.searchKeyword?.trim();
    return this.db
      .selectFrom('menu')
      .select(MENU_COLUMNS)
      .select(permCodes.as('perm_codes'))
      .$if(!!filters.menuCode, (qb) => qb.where('menu.menu_code', 'ilike', containsPattern(filters.menuCode!)))
      .$if(!!filters.menuName, (qb) => qb.where('menu.menu_name', 'ilike', containsPattern(filters.menuName!)))
      .$if(!!filters.menuType, (qb) => qb.where('menu.menu_type', '=', filters.menuType!))
      .$if(filters.parentMenuId !== undefined, (qb) => qb.where('menu.parent_menu_id', '=', filters.parentMenuId!))
      .$if(filters.isActive !== undefined, (qb) => qb.where('menu.is_active', '=', filters.isActive!))
      .$if(!!keyword, (qb) =>
        qb.where((eb) =>
          eb.or([eb('menu.menu_code', 'ilike', containsPattern(keyword!)), eb('menu.menu_name', 'ilike', containsPattern(keyword!))]),
        ),
      );
  }

  findById(menuId: number, db: Executor = this.db) {
    return db.selectFrom('menu').select(MENU_COLUMNS).select(permCodes.as('perm_codes')).where('menu.menu_id', '=', menuId).executeTakeFirst();
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

  async insert(values: MenuWrite & Required<Pick<MenuWrite, 'menuCode' | 'menuName' | 'menuType'>>, level: number, actorId: number | null, db: Executor): Promise<number> {
    const row = await db
      .insertInto('menu')
      .values({
        parent_menu_id: values.parentMenuId ?? null,
        menu_code: values.menuCode,
        menu_name: values.menuName,
        menu_type: values.menuType,
        menu_path: values.menuPath ?? null,
        menu_icon: values.menuIcon ?? null,
        component_path: values.componentPath ?? null,
        menu_level: level,
        sort_order: values.sortOrder ?? 0,
        is_visible: values.isVisible ?? true,
        is_active: values.isActive ?? true,
        description: values.description ?? null,
        created_by: actorId,
        updated_by: actorId,
      })
      .returning('menu_id')
      .executeTakeFirstOrThrow();
    return row.menu_id;
  }

  async update(menuId: number, values: MenuWrite, actorId: number | null, db: Executor): Promise<void> {
    await db
      .updateTable('menu')
      .set({
        ...(values.parentMenuId !== undefined && { parent_menu_id: values.parentMenuId }),
        ...(values.menuCode !== undefined && { menu_code: values.menuCode }),
        ...(values.menuName !== undefined && { menu_name: values.menuName }),
        ...(values.menuType !== undefined && { menu_type: values.menuType }),
        ...(values.menuPath !== undefined && { menu_path: values.menuPath }),
        ...(values.menuIcon !== undefined && { menu_icon: values.menuIcon }),
        ...(values.componentPath !== undefined && { component_path: values.componentPath }),
        ...(values.sortOrder !== undefined && { sort_order: values.sortOrder }),
        ...(values.isVisible !== undefined && { is_visible: values.isVisible }),
        ...(values.isActive !== undefined && { is_active: values.isActive }),
        ...(values.description !== undefined && { description: values.description }),
        updated_at: sql<Date>`now()`,
        updated_by: actorId,
      })
      .where('menu_id', '=', menuId)
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

export type MenuRow = NonNullable<Awaited<ReturnType<MenuRepository['findById']>>>;
