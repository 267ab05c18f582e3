import { sql, type Transaction } from 'kysely';
import type { Database, Db, PermCode } from '@csp/db';
import { containsPattern } from '../common/date-range.js';

type Executor = Db | Transaction<Database>;

export interface RoleFilters {
  roleCode?: string | undefined;
  roleName?: string | undefined;
  isActive?: boolean | undefined;
  searchKeyword?: string | undefined;
}

export interface RoleWrite {
  roleName?: string | undefined;
  roleDesc?: string | null | undefined;
  roleLevel?: number | undefined;
  isActive?: boolean | undefined;
}

export interface Grant {
  menuId: number;
  permCode: PermCode;
}

const ROLE_COLUMNS = [
  'role.role_id',
  'role.role_code',
  'role.role_name',
  'role.role_desc',
  'role.role_level',
  'role.is_system',
  'role.is_active',
  'role.created_at',
  'role.updated_at',
] as const;

export class RoleRepository {
  constructor(private readonly db: Db) {}

  listQuery(filters: RoleFilters) {
    const keyword = filters.searchKeyword?.trim();
    return this.db
      .selectFrom('role')
      .select(ROLE_COLUMNS)
      .select(sql<number>`(select count(*)::int from user_role ur where ur.role_id = role.role_id)`.as('user_count'))
      .$if(!!filters.roleCode, (qb) => qb.where('role.role_code', 'ilike', containsPattern(filters.roleCode!)))
      .$if(!!filters.roleName, (qb) => qb.where('role.role_name', 'ilike', containsPattern(filters.roleName!)))
      .$if(filters.isActive !== undefined, (qb) => qb.where('role.is_active', '=', filters.isActive!))
      .$if(!!keyword, (qb) =>
        qb.where((eb) =>
          eb.or([eb('role.role_code', 'ilike', containsPattern(keyword!)), eb('role.role_name', 'ilike', containsPattern(keyword!))]),
        ),
      );
  }

  findById(roleId: number, db: Executor = this.db) {
    return db
      .selectFrom('role')
      .select(ROLE_COLUMNS)
      .select(sql<number>`(select count(*)::int from user_role ur where ur.role_id = role.role_id)`.as('user_count'))
      .where('role.role_id', '=', roleId)
      .executeTakeFirst();
  }

  async insert(roleCode: string, values: RoleWrite, actorId: number | null): Promise<number> {
    const row = await this.db
      .insertInto('role')
      .values({
        role_code: roleCode,
        role_name: values.roleName!,
        role_desc: values.roleDesc ?? null,
        role_level: values.roleLevel ?? 0,
        is_system: 'N',
        is_active: values.isActive ?? true,
        created_by: actorId,
        updated_by: actorId,
      })
      .returning('role_id')
      .executeTakeFirstOrThrow();
    return row.role_id;
  }

  async update(roleId: number, values: RoleWrite, actorId: number | null): Promise<void> {
    await this.db
      .updateTable('role')
      .set({
        ...(values.roleName !== undefined && { role_name: values.roleName }),
        ...(values.roleDesc !== undefined && { role_desc: values.roleDesc }),
        ...(values.roleLevel !== undefined && { role_level: values.roleLevel }),
        ...(values.isActive !== undefined && { is_active: values.isActive }),
        updated_at: sql<Date>`now()`,
        updated_by: actorId,
      })
      .where('role_id', '=', roleId)
      .execute();
  }

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

export type RoleRow = NonNullable<Awaited<ReturnType<RoleRepository['findById']>>>;
