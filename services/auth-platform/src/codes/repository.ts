import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { containsPattern } from '../common/date-range.js';

export interface GroupFilters {
  groupCode?: string | undefined;
  groupName?: string | undefined;
  isSystem?: 'Y' | 'N' | undefined;
  isActive?: boolean | undefined;
  searchKeyword?: string | undefined;
}

export interface GroupWrite {
  groupName?: string | undefined;
  description?: string | null | undefined;
  isSystem?: 'Y' | 'N' | undefined;
  isActive?: boolean | undefined;
  sortOrder?: number | undefined;
}

export interface CodeWrite {
  codeName?: string | undefined;
  codeNameEn?: string | null | undefined;
  codeDesc?: string | null | undefined;
  attr1?: string | null | undefined;
  attr2?: string | null | undefined;
  attr3?: string | null | undefined;
  refCode?: string | null | undefined;
  sortOrder?: number | undefined;
  isActive?: boolean | undefined;
}

const GROUP_COLUMNS = [
  'g.group_code',
  'g.group_name',
  'g.description',
  'g.is_system',
  'g.is_active',
  'g.sort_order',
  'g.created_at',
  'g.updated_at',
] as const;

const CODE_COLUMNS = [
  'code_id',
  'group_code',
  'code',
  'code_name',
  'code_name_en',
  'code_desc',
  'attr1',
  'attr2',
  'attr3',
  'ref_code',
  'sort_order',
  'is_active',
  'created_at',
  'updated_at',
] as const;

export class CodeRepository {
  constructor(private readonly db: Db) {}

  groupListQuery(filters: GroupFilters) {
    const keyword = filters.searchKeyword?.trim();
    return this.db
      .selectFrom('common_code_group as g')
      .select(GROUP_COLUMNS)
      .select(sql<number>`(select count(*)::int from common_code c where c.group_code = g.group_code)`.as('code_count'))
      .$if(!!filters.groupCode, (qb) => qb.where('g.group_code', 'ilike', containsPattern(filters.groupCode!)))
      .$if(!!filters.groupName, (qb) => qb.where('g.group_name', 'ilike', containsPattern(filters.groupName!)))
      .$if(!!filters.isSystem, (qb) => qb.where('g.is_system', '=', filters.isSystem!))
      .$if(filters.isActive !== undefined, (qb) => qb.where('g.is_active', '=', filters.isActive!))
      .$if(!!keyword, (qb) =>
        qb.where((eb) =>
          eb.or([eb('g.group_code', 'ilike', containsPattern(keyword!)), eb('g.group_name', 'ilike', containsPattern(keyword!))]),
        ),
      );
  }

  findGroup(groupCode: string) {
    return this.db
      .selectFrom('common_code_group as g')
      .select(GROUP_COLUMNS)
      .select(sql<number>`(select count(*)::int from common_code c where c.group_code = g.group_code)`.as('code_count'))
      .where('g.group_code', '=', groupCode)
      .executeTakeFirst();
  }

  /** Codes of a group in display order; `activeOnly` for the pick lists. */
  codesOf(groupCode: string, options: { activeOnly: boolean }) {
    return this.db
      .selectFrom('common_code')
      .select(CODE_COLUMNS)
      .where('group_code', '=', groupCode)
      .$if(options.activeOnly, (qb) => qb.where('is_active', '=', true))
      .orderBy('sort_order')
      .orderBy('code')
      .execute();
  }

  findCode(groupCode: string, code: string) {
    return this.db
      .selectFrom('common_code')
      .select(CODE_COLUMNS)
      .where('group_code', '=', groupCode)
      .where('code', '=', code)
      .executeTakeFirst();
  }

  async insertGroup(groupCode: string, values: GroupWrite, actorId: number | null): Promise<void> {
    await this.db
      .insertInto('common_code_group')
      .values({
        group_code: groupCode,
        group_name: values.groupName!,
        description: values.description ?? null,
        is_system: values.isSystem ?? 'N',
        is_active: values.isActive ?? true,
        sort_order: values.sortOrder ?? 0,
        created_by: actorId,
        updated_by: actorId,
      })
      .execute();
  }

  async updateGroup(groupCode: string, values: GroupWrite, actorId: number | null): Promise<void> {
    await this.db
      .updateTable('common_code_group')
      .set({
        ...(values.groupName !== undefined && { group_name: values.groupName }),
        ...(values.description !== undefined && { description: values.description }),
        ...(values.isActive !== undefined && { is_active: values.isActive }),
        ...(values.sortOrder !== undefined && { sort_order: values.sortOrder }),
        updated_at: sql<Date>`now()`,
        updated_by: actorId,
      })
      .where('group_code', '=', groupCode)
      .execute();
  }

  /** The group's codes go with it (ON DELETE CASCADE). */
  async deleteGroup(groupCode: string): Promise<void> {
    await this.db.deleteFrom('common_code_group').where('group_code', '=', groupCode).execute();
  }

  async insertCode(groupCode: string, code: string, values: CodeWrite, actorId: number | null): Promise<number> {
    const row = await this.db
      .insertInto('common_code')
      .values({
        group_code: groupCode,
        code,
        code_name: values.codeName!,
        code_name_en: values.codeNameEn ?? null,
        code_desc: values.codeDesc ?? null,
        attr1: values.attr1 ?? null,
        attr2: values.attr2 ?? null,
        attr3: values.attr3 ?? null,
        ref_code: values.refCode ?? null,
        sort_order: values.sortOrder ?? 0,
        is_active: values.isActive ?? true,
        created_by: actorId,
        updated_by: actorId,
      })
      .returning('code_id')
      .executeTakeFirstOrThrow();
    return row.code_id;
  }

  async updateCode(groupCode: string, code: string, values: CodeWrite, actorId: number | null): Promise<void> {
    await this.db
      .updateTable('common_code')
      .set({
        ...(values.codeName !== undefined && { code_name: values.codeName }),
        ...(values.codeNameEn !== undefined && { code_name_en: values.codeNameEn }),
        ...(values.codeDesc !== undefined && { code_desc: values.codeDesc }),
        ...(values.attr1 !== undefined && { attr1: values.attr1 }),
        ...(values.attr2 !== undefined && { attr2: values.attr2 }),
        ...(values.attr3 !== undefined && { attr3: values.attr3 }),
        ...(values.refCode !== undefined && { ref_code: values.refCode }),
        ...(values.sortOrder !== undefined && { sort_order: values.sortOrder }),
        ...(values.isActive !== undefined && { is_active: values.isActive }),
        updated_at: sql<Date>`now()`,
        updated_by: actorId,
      })
      .where('group_code', '=', groupCode)
      .where('code', '=', code)
      .execute();
  }

  async deleteCode(groupCode: string, code: string): Promise<void> {
    await this.db.deleteFrom('common_code').where('group_code', '=', groupCode).where('code', '=', code).execute();
  }
}

export type GroupRow = NonNullable<Awaited<ReturnType<CodeRepository['findGroup']>>>;
export type CodeRow = NonNullable<Awaited<ReturnType<CodeRepository['findCode']>>>;
