import { sql } from 'kysely';
import type { Db } from '@csp/db';
import type { AnyRow } from '@csp/service-kit';
import { codeResource } from './codes.resource.js';

/** Codes read through their group, and the deletes (the group's codes go with it: ON DELETE CASCADE). */
export class CodeRepository {
  constructor(private readonly db: Db) {}

  /** Codes of a group in display order; `activeOnly` for the pick lists. */
  codesOf(groupCode: string, options: { activeOnly: boolean }): Promise<AnyRow[]> {
    let qb = codeResource.select(this.db).where(sql.ref('c.group_code'), '=', groupCode);
    if (options.activeOnly) qb = qb.where(sql.ref('c.is_active'), '=', true);
    return qb.orderBy(sql.ref('c.sort_order')).orderBy(sql.ref('c.code')).execute();
  }

  findCode(groupCode: string, code: string): Promise<AnyRow | undefined> {
    return codeResource.select(this.db).where(sql.ref('c.group_code'), '=', groupCode).where(sql.ref('c.code'), '=', code).executeTakeFirst();
  }

  async deleteGroup(groupCode: string): Promise<void> {
    await this.db.deleteFrom('common_code_group').where('group_code', '=', groupCode).execute();
  }

  async deleteCode(groupCode: string, code: string): Promise<void> {
    await this.db.deleteFrom('common_code').where('group_code', '=', groupCode).where('code', '=', code).execute();
  }
}
