export * from './schema/index.js';
export * from './pool.js';
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
