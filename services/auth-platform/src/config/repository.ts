import { sql } from 'kysely';
import type { Db } from '@csp/db';

const CONFIG_COLUMNS = ['config_key', 'config_value', 'config_group', 'description', 'is_encrypted', 'updated_by', 'updated_at'] as const;

export class ConfigRepository {
  constructor(private readonly db: Db) {}

  list(filters: { configGroup?: string | undefined }) {
    return this.db
      .selectFrom('system_config')
      .select(CONFIG_COLUMNS)
      .$if(!!filters.configGroup, (qb) => qb.where('config_group', '=', filters.configGroup!))
      .orderBy('config_group')
      .orderBy('config_key')
      .execute();
  }

  find(key: string) {
    return this.db.selectFrom('system_config').select(CONFIG_COLUMNS).where('config_key', '=', key).executeTakeFirst();
  }

  async setValue(key: string, storedValue: string, actorId: number | null): Promise<void> {
    await this.db
      .updateTable('system_config')
      .set({ config_value: storedValue, updated_by: actorId, updated_at: sql<Date>`now()` })
      .where('config_key', '=', key)
      .execute();
  }
}

export type ConfigRow = NonNullable<Awaited<ReturnType<ConfigRepository['find']>>>;
