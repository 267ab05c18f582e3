export * from './schema/index.js';
export * from './values.js';
export * from './pool.js';
export {
  clientTransaction,
  dbOnClient,
  type ClientTransaction,
  type PgClient,
} from './client-transaction.js';
export { CopyWriter, copyRows, copyText, type CopyValue } from './copy.js';
export {
  migrate,
  readMigrations,
  migrationChecksum,
  MigrationChecksumError,
  MigrationError,
  DEFAULT_MIGRATIONS_DIR,
  type MigrateOptions,
  type MigrationFile,
  type MigrationLogger,
} from './migrate.js';
export {
  ensureAdminUser,
  hashPassword,
  verifyPassword,
  type EnsureAdminOptions,
  type EnsureAdminResult,
} from './bootstrap.js';
export {
  SETTLE_MONTH_TABLES,
  NEVER_ARCHIVED_TABLES,
  ensureMonthPartitions,
  analyzeMonthPartitions,
  monthsAhead,
  monthPartitionName,
  isSettleMonth,
  partitionMonths,
  archivedMonths,
  archiveMonth,
  restoreMonth,
  ArchiveReadPlugin,
  withArchiveReads,
  archiveAware,
  type SettleMonthTable,
} from './partitions.js';
