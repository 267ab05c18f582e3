import type { Db } from '@csp/db';

export class DataDomainRepository {
  constructor(private readonly db: Db) {}

  options() {
    return this.db
      .selectFrom('data_domain')
      .select(['domain_code', 'domain_name', 'category'])
      .where('is_active', '=', 'Y')
      .orderBy('category')
      .orderBy('domain_code')
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
