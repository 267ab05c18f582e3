import type { FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import type { Database } from '@csp/db';
import { AppError, invalid, notFound, type AnyRow, type ServiceApp } from '@csp/service-kit';
import { findRow, writeContext } from '../common/resource-rows.js';
import type { CodeCache, CodeItem } from './cache.js';
import type { CodeRepository } from './codes.repository.js';
import { codeGroupResource, codeResource } from './codes.resource.js';

type Warn = (obj: Record<string, unknown>, msg: string) => void;

/**
 * Spec 7.5: a system group (is_system 'Y') and its codes cannot be updated or deleted (B008);
 * keys live in the path, so a key is never changed by an update. Adding a code to a system group
 * is allowed (a duplicate is B009 like anywhere else).
 */
export class CodeService {
  constructor(
    private readonly app: ServiceApp,
    private readonly repo: CodeRepository,
    private readonly cache: CodeCache,
    private readonly warn: Warn,
  ) {}

  private toCode(row: AnyRow) {
    return codeResource.toResp(row, this.app.cipher);
  }

  private toItem(row: AnyRow): CodeItem {
    const { code, codeName, codeNameEn, codeDesc, attr1, attr2, attr3, refCode, sortOrder, tone } = this.toCode(row);
    return { code: code!, codeName: codeName!, codeNameEn, codeDesc, attr1, attr2, attr3, refCode, sortOrder: sortOrder!, tone: tone! };
  }

  /** Active codes of an active group, from the shared cache; E404 for an unknown group. */
  async activeCodes(groupCode: string): Promise<CodeItem[]> {
    const cached = await this.cache.get(groupCode).catch((err: unknown) => {
      this.warn({ err }, 'common-code cache read failed; reading the database');
      return undefined;
    });
    if (cached) return cached;
    const group = await this.group(groupCode);
    const items = group.isActive ? (await this.repo.codesOf(groupCode, { activeOnly: true })).map((r) => this.toItem(r)) : [];
    await this.cache.set(groupCode, items).catch((err: unknown) => this.warn({ err }, 'common-code cache write failed'));
    return items;
  }

  /** A code is valid when it exists and is active in an active group; otherwise E411. */
  async validate(groupCode: string, code: string): Promise<CodeItem> {
    const item = (await this.activeCodes(groupCode).catch(() => [] as CodeItem[])).find((c) => c.code === code);
    if (!item) throw invalid('code', `${code} is not a valid code of group ${groupCode}`);
    return item;
  }

  async group(groupCode: string) {
    const row = await findRow(codeGroupResource, this.app.db, groupCode);
    if (!row) throw notFound(`Code group ${groupCode}`);
    return codeGroupResource.toResp(row, this.app.cipher);
  }

  async groupWithCodes(groupCode: string) {
    const group = await this.group(groupCode);
    const codes = await this.repo.codesOf(groupCode, { activeOnly: false });
    return { ...group, codes: codes.map((r) => this.toCode(r)) };
  }

  async createGroup(request: FastifyRequest, body: AnyRow) {
    await this.app.db.transaction().execute(async (trx) => {
      const values = await codeGroupResource.toInsert(body, writeContext(this.app, request, trx));
      await trx.insertInto('common_code_group').values(values as Insertable<Database['common_code_group']>).execute();
    });
    await this.cache.evict(body.groupCode);
    return { after: await this.groupWithCodes(body.groupCode) };
  }

  /** Omitted fields keep their value. */
  async updateGroup(request: FastifyRequest, groupCode: string, body: AnyRow) {
    const before = await this.unlockedGroup(groupCode, 'updated');
    await this.app.db.transaction().execute(async (trx) => {
      const values = await codeGroupResource.toUpdate(body, writeContext(this.app, request, trx), before);
      await trx.updateTable('common_code_group').set(values).where('group_code', '=', groupCode).execute();
    });
    await this.cache.evict(groupCode);
    return { before, after: await this.group(groupCode) };
  }

  async deleteGroup(groupCode: string) {
    const before = await this.unlockedGroup(groupCode, 'deleted');
    await this.repo.deleteGroup(groupCode);
    await this.cache.evict(groupCode);
    return { before };
  }

  async createCode(request: FastifyRequest, groupCode: string, body: AnyRow) {
    await this.group(groupCode);
    const codeId = await this.app.db.transaction().execute(async (trx) => {
      const values = await codeResource.toInsert(body, writeContext(this.app, request, trx));
      const row = await trx
        .insertInto('common_code')
        .values({ ...(values as Insertable<Database['common_code']>), group_code: groupCode })
        .returning('code_id')
        .executeTakeFirstOrThrow();
      return row.code_id;
    });
    await this.cache.evict(groupCode);
    return { codeId, after: this.toCode((await this.repo.findCode(groupCode, body.code))!) };
  }

  /** Omitted fields keep their value. */
  async updateCode(request: FastifyRequest, groupCode: string, code: string, body: AnyRow) {
    await this.unlockedGroup(groupCode, 'updated');
    const existing = await this.code(groupCode, code);
    await this.app.db.transaction().execute(async (trx) => {
      const values = await codeResource.toUpdate(body, writeContext(this.app, request, trx), existing);
      await trx.updateTable('common_code').set(values).where('code_id', '=', existing.codeId).execute();
    });
    await this.cache.evict(groupCode);
    return { codeId: existing.codeId as number, before: this.toCode(existing), after: this.toCode(await this.code(groupCode, code)) };
  }

  async deleteCode(groupCode: string, code: string) {
    await this.unlockedGroup(groupCode, 'deleted');
    const existing = await this.code(groupCode, code);
    await this.repo.deleteCode(groupCode, code);
    await this.cache.evict(groupCode);
    return { codeId: existing.codeId as number, before: this.toCode(existing) };
  }

  async refresh(): Promise<void> {
    await this.cache.clear();
  }

  private async code(groupCode: string, code: string): Promise<AnyRow> {
    const row = await this.repo.findCode(groupCode, code);
    if (!row) throw notFound(`Code ${groupCode}/${code}`);
    return row;
  }

  private async unlockedGroup(groupCode: string, verb: string) {
    const group = await this.group(groupCode);
    if (group.isSystem === 'Y') {
      throw new AppError('SYSTEM_CODE_LOCKED', `Group ${groupCode} is a system group; its codes cannot be ${verb}`);
    }
    return group;
  }
}
