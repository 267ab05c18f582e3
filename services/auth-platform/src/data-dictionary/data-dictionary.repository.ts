import type { Db } from '@csp/db';

export class DataDictionaryRepository {
  constructor(private readonly db: Db) {}

  async tableNames(): Promise<string[]> {
    const rows = await this.db.selectFrom('v_data_dictionary_full').select('table_name').distinct().orderBy('table_name').execute();
    return rows.map((r) => r.table_name);
  }

  /** Every column (of one table, or of all) with its dictionary row and domain where they exist. */
  full(tableName: string | undefined) {
    return this.db
      .selectFrom('v_data_dictionary_full')
      .selectAll()
      .$if(!!tableName, (qb) => qb.where('table_name', '=', tableName!))
      .orderBy('table_name')
      .orderBy('ordinal_position')
      .execute();
  }
}

export type FullRow = Awaited<ReturnType<DataDictionaryRepository['full']>>[number];
