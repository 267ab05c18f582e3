import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { containsPattern } from '../common/date-range.js';

export interface DomainFilters {
  domainCategory?: string | undefined;
  domainCode?: string | undefined;
  domainName?: string | undefined;
  isActive?: 'Y' | 'N' | undefined;
  searchType?: string | undefined;
  searchKeyword?: string | undefined;
}

export interface DomainWrite {
  domainName: string;
  category: string;
  dataType: string;
  length?: number | null | undefined;
  precision?: number | null | undefined;
  scale?: number | null | undefined;
  formatPattern?: string | null | undefined;
  validationRegex?: string | null | undefined;
  maskingType?: string | null | undefined;
  encrypted?: 'Y' | 'N' | undefined;
  description?: string | null | undefined;
  isActive?: 'Y' | 'N' | undefined;
}

/** The writable columns of a data domain, defaults applied (insert and update alike). */
function domainColumns(v: DomainWrite) {
  return {
    domain_name: v.domainName,
    category: v.category,
    data_type: v.dataType,
    length: v.length ?? null,
    precision: v.precision ?? null,
    scale: v.scale ?? null,
    format_pattern: v.formatPattern ?? null,
    validation_regex: v.validationRegex ?? null,
    masking_type: v.maskingType ?? null,
    encrypted: v.encrypted ?? 'N',
    description: v.description ?? null,
    is_active: v.isActive ?? 'Y',
  };
}

const DOMAIN_COLUMNS = [
  'd.domain_code',
  'd.domain_name',
  'd.category',
  'd.data_type',
  'd.length',
  'd.precision',
  'd.scale',
  'd.format_pattern',
  'd.validation_regex',
  'd.masking_type',
  'd.encrypted',
  'd.description',
  'd.is_active',
  'd.created_at',
  'd.updated_at',
] as const;

const usage = sql<number>`(select count(*)::int from data_dictionary dd where dd.domain_code = d.domain_code)`;

export class DataDomainRepository {
  constructor(private readonly db: Db) {}

  listQuery(f: DomainFilters) {
    const keyword = f.searchKeyword?.trim();
    return this.db
      .selectFrom('data_domain as d')
      .select(DOMAIN_COLUMNS)
      .select(usage.as('usage_count'))
      .$if(!!f.domainCategory, (qb) => qb.where('d.category', '=', f.domainCategory!))
      .$if(!!f.domainCode, (qb) => qb.where('d.domain_code', 'ilike', containsPattern(f.domainCode!)))
      .$if(!!f.domainName, (qb) => qb.where('d.domain_name', 'ilike', containsPattern(f.domainName!)))
      .$if(!!f.isActive, (qb) => qb.where('d.is_active', '=', f.isActive!))
      .$if(!!keyword, (qb) => {
        const pattern = containsPattern(keyword!);
        if (f.searchType === 'domainCode') return qb.where('d.domain_code', 'ilike', pattern);
        if (f.searchType === 'domainName') return qb.where('d.domain_name', 'ilike', pattern);
        return qb.where((eb) =>
          eb.or([eb('d.domain_code', 'ilike', pattern), eb('d.domain_name', 'ilike', pattern)]),
        );
      });
  }

  find(domainCode: string) {
    return this.db
      .selectFrom('data_domain as d')
      .select(DOMAIN_COLUMNS)
      .select(usage.as('usage_count'))
      .where('d.domain_code', '=', domainCode)
      .executeTakeFirst();
  }

  options() {
    return this.db
      .selectFrom('data_domain')
      .select(['domain_code', 'domain_name', 'category'])
      .where('is_active', '=', 'Y')
      .orderBy('category')
      .orderBy('domain_code')
      .execute();
  }

  async insert(domainCode: string, v: DomainWrite, actorId: number | null): Promise<void> {
    await this.db
      .insertInto('data_domain')
      .values({
        domain_code: domainCode,
        ...domainColumns(v),
        created_by: actorId,
        updated_by: actorId,
      })
      .execute();
  }

  async update(domainCode: string, v: DomainWrite, actorId: number | null): Promise<void> {
    await this.db
      .updateTable('data_domain')
      .set({
        ...domainColumns(v),
        updated_at: sql<Date>`now()`,
        updated_by: actorId,
      })
      .where('domain_code', '=', domainCode)
      .execute();
  }

  /** Deletes only while no dictionary row references the domain (checked in the same statement). */
  async deleteUnreferenced(domainCode: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('data_domain')
      .where('domain_code', '=', domainCode)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('data_dictionary').select('dict_id').where('domain_code', '=', domainCode))),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

export type DomainRow = NonNullable<Awaited<ReturnType<DataDomainRepository['find']>>>;
