import { AppError, invalid, isoTimestamp, notFound } from '@csp/service-kit';
import type { CodeCache, CodeItem } from './cache.js';
import type { CodeRepository, CodeRow, CodeWrite, GroupRow, GroupWrite } from './repository.js';

export function toGroupResp(row: GroupRow) {
  return {
    groupCode: row.group_code,
    groupName: row.group_name,
    description: row.description,
    isSystem: row.is_system,
    isActive: row.is_active,
    sortOrder: row.sort_order,
    codeCount: row.code_count,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

export function toCodeResp(row: CodeRow) {
  return {
    codeId: row.code_id,
    groupCode: row.group_code,
    code: row.code,
    codeName: row.code_name,
    codeNameEn: row.code_name_en,
    codeDesc: row.code_desc,
    attr1: row.attr1,
    attr2: row.attr2,
    attr3: row.attr3,
    refCode: row.ref_code,
    sortOrder: row.sort_order,
    isActive: row.is_active,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

function toItem(row: CodeRow): CodeItem {
  return {
    code: row.code,
    codeName: row.code_name,
    codeNameEn: row.code_name_en,
    codeDesc: row.code_desc,
    attr1: row.attr1,
    attr2: row.attr2,
    attr3: row.attr3,
    refCode: row.ref_code,
    sortOrder: row.sort_order,
  };
}

type Warn = (obj: Record<string, unknown>, msg: string) => void;

/**
 * Spec 7.5: a system group (is_system 'Y') and its codes cannot be updated or deleted (B008);
 * keys live in the path, so a key is never changed by an update. Adding a code to a system group
 * is allowed (a duplicate is B009 like anywhere else).
 */
export class CodeService {
  constructor(
    private readonly repo: CodeRepository,
    private readonly cache: CodeCache,
    private readonly warn: Warn,
  ) {}

  /** Active codes of an active group, from the shared cache; E404 for an unknown group. */
  async activeCodes(groupCode: string): Promise<CodeItem[]> {
    const cached = await this.cache.get(groupCode).catch((err: unknown) => {
      this.warn({ err }, 'common-code cache read failed; reading the database');
      return undefined;
    });
    if (cached) return cached;
    const group = await this.repo.findGroup(groupCode);
    if (!group) throw notFound(`Code group ${groupCode}`);
    const items = group.is_active ? (await this.repo.codesOf(groupCode, { activeOnly: true })).map(toItem) : [];
    await this.cache.set(groupCode, items).catch((err: unknown) => this.warn({ err }, 'common-code cache write failed'));
    return items;
  }

  /** A code is valid when it exists and is active in an active group; otherwise E411. */
  async validate(groupCode: string, code: string): Promise<CodeItem> {
    const item = (await this.activeCodes(groupCode).catch(() => [] as CodeItem[])).find((c) => c.code === code);
    if (!item) throw invalid('code', `${code} is not a valid code of group ${groupCode}`);
    return item;
  }

  async group(groupCode: string): Promise<GroupRow> {
    const row = await this.repo.findGroup(groupCode);
    if (!row) throw notFound(`Code group ${groupCode}`);
    return row;
  }

  async groupWithCodes(groupCode: string) {
    const group = await this.group(groupCode);
    const codes = await this.repo.codesOf(groupCode, { activeOnly: false });
    return { ...toGroupResp(group), codes: codes.map(toCodeResp) };
  }

  async createGroup(groupCode: string, values: GroupWrite, actorId: number | null) {
    await this.repo.insertGroup(groupCode, values, actorId);
    await this.cache.evict(groupCode);
    return { after: await this.groupWithCodes(groupCode) };
  }

  async updateGroup(groupCode: string, values: GroupWrite, actorId: number | null) {
    const before = await this.unlockedGroup(groupCode, 'updated');
    await this.repo.updateGroup(groupCode, values, actorId);
    await this.cache.evict(groupCode);
    return { before: toGroupResp(before), after: toGroupResp(await this.group(groupCode)) };
  }

  async deleteGroup(groupCode: string) {
    const before = await this.unlockedGroup(groupCode, 'deleted');
    await this.repo.deleteGroup(groupCode);
    await this.cache.evict(groupCode);
    return { before: toGroupResp(before) };
  }

  async createCode(groupCode: string, code: string, values: CodeWrite, actorId: number | null) {
    await this.group(groupCode);
    const codeId = await this.repo.insertCode(groupCode, code, values, actorId);
    await this.cache.evict(groupCode);
    return { codeId, after: toCodeResp((await this.repo.findCode(groupCode, code))!) };
  }

  async updateCode(groupCode: string, code: string, values: CodeWrite, actorId: number | null) {
    await this.unlockedGroup(groupCode, 'updated');
    const before = await this.code(groupCode, code);
    await this.repo.updateCode(groupCode, code, values, actorId);
    await this.cache.evict(groupCode);
    return { codeId: before.code_id, before: toCodeResp(before), after: toCodeResp(await this.code(groupCode, code)) };
  }

  async deleteCode(groupCode: string, code: string) {
    await this.unlockedGroup(groupCode, 'deleted');
    const before = await this.code(groupCode, code);
    await this.repo.deleteCode(groupCode, code);
    await this.cache.evict(groupCode);
    return { codeId: before.code_id, before: toCodeResp(before) };
  }

  async refresh(): Promise<void> {
    await this.cache.clear();
  }

  private async code(groupCode: string, code: string): Promise<CodeRow> {
    const row = await this.repo.findCode(groupCode, code);
    if (!row) throw notFound(`Code ${groupCode}/${code}`);
    return row;
  }

  private async unlockedGroup(groupCode: string, verb: string): Promise<GroupRow> {
    const group = await this.group(groupCode);
    if (group.is_system === 'Y') {
      throw new AppError('SYSTEM_CODE_LOCKED', `Group ${groupCode} is a system group; its codes cannot be ${verb}`);
    }
    return group;
  }
}
