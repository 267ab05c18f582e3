export { loadServiceConfig, ConfigError, type ServiceConfig } from './config.js';
export { ERRORS, AppError, isAppError, notFound, invalid, duplicate, forbidden, unauthorized } from './errors.js';
export type { ErrorName, ErrorCode, FieldError } from './errors.js';
export { errorHandler, notFoundHandler } from './error-handler.js';
export { ok, fail, envelope, pageSchema, pageResponse, toPage, type ApiResponse, type PageResponse } from './envelope.js';
export { createServiceApp, runService, UPLOAD_LIMIT_BYTES } from './app.js';
export { action, ACTION_METHODS } from './action.js';
export { operationIdOf, BEARER_SECURITY } from './openapi.js';
export { assertCleanText, textFieldErrors, textProblem } from './text-input.js';
export { isSystemError, malformedForm, unlessCutOff } from './multipart-body.js';
export type { ServiceApp, CreateServiceAppOptions, RunServiceOptions } from './app.js';
export { createLogger, REDACT_PATHS, type LoggerOptions } from './logger.js';
export {
  signAccessToken,
  authenticate,
  toAccessTokenPayload,
  ACCESS_TOKEN_TTL,
  ACCESS_TOKEN_TTL_SECONDS,
  type AuthUser,
  type AccessTokenPayload,
} from './auth.js';
export { perm, authenticated, publicRoute, assertAllRoutesGuarded, type PermCode, type PermissionRequirement } from './guard.js';
export { PERMISSION_INVALIDATE_CHANNEL, type Permissions } from './permission-cache.js';
export { maskedQueryParams } from './access-log.js';
export type { ChangeLogEntry, ChangeAction, ChangeLogOrigin } from './change-log.js';
export { changeLogRow, writeChangeLog } from './change-log.js';
export {
  pageQuery,
  listQuery,
  zMoney,
  zRate,
  zDate,
  zSettleMonth,
  zQuarter,
  zId,
  money,
  rate,
  isoDate,
  isoTimestamp,
  type PageQuery,
} from './schemas.js';
export { paginate, applySort, type PaginateOptions, type PaginateQuery } from './paginate.js';
export { streamRows, streamBatches } from './cursor.js';
export {
  sendSpreadsheet,
  writeSpreadsheet,
  contentDisposition,
  moneyColumn,
  rateColumn,
  XLSX_CONTENT_TYPE,
  type DecimalColumnOptions,
  type RowBatches,
  type SpreadsheetRequest,
  type SpreadsheetColumn,
  type SpreadsheetOptions,
} from './spreadsheet.js';
export {
  defineResource,
  registerResource,
  type ResponseOf,
  type ResourceContext,
  type ResourceDeclaration,
  type ResourceDelete,
  type Resource,
  type ResourceMeta,
  type ResourceFieldMeta,
  type AgentScope,
} from './resource.js';
export type { AnyQuery, AnyRow, AnyDb, ResourceFilters } from './resource-types.js';
export { f, Field, type FieldKind, type FieldTable, type MaskKind, type FilterMode } from './fields.js';
export { listPage, type ListPage } from './list-page.js';
export { resourceMetaSchema, resolveLabel } from './meta.js';
export { requestLang, textIn, type Lang, type LocalizedText } from './lang.js';
export { FIELD_VOCABULARY, REF_TARGETS, REF_BY_KEY, type LocalText, type RefTarget } from './vocabulary.js';
export type { LiveUser } from './permission-cache.js';
export { escapeLike, zBoolQuery, today, todayCompact, requireRow, readSystemConfig } from './text.js';
export { ownAgentOnly, restrictToOwnAgent } from './row-scope.js';
export { createFieldCipher, CiphertextError, type FieldCipher } from './crypto.js';
export { maskName, maskPhone, maskResidentNo, maskAccountNo, maskEmail } from './masking.js';
export type { ZodTypeProvider, FastifyPluginAsyncZod, FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
export { runServiceProcess, type ServiceProcessOptions, type ServiceProcessDeps, type ServiceProcessConfig } from './service-process.js';
export { storageFolder, storedFileName, resolveStoredPath } from './file-layout.js';
export {
  MASK_CHAR,
  MASKED_VALUE_MESSAGE,
  looksMasked,
  writeOnlyValue,
  shownValue,
  writeOnlyFieldsOf,
  readOnlyMaskedFieldsOf,
  writeOnlyGuard,
  writeOnlyColumns,
  registeredResources,
  type WriteOnlyRule,
  type WriteOnlyField,
} from './write-only.js';
export {
  opsEnv,
  opsEnvShape,
  observePool,
  registerHttpMetrics,
  startMetricsServer,
  startOpsListener,
  collectProcessMetrics,
  metricsText,
  type MetricsServer,
  type OpsEnv,
} from './metrics.js';
export {
  startTracing,
  startInMemoryTracing,
  stopTracing,
  tracingEnabled,
  tracingRequested,
  registerTracing,
  currentTraceHeaders,
} from './tracing.js';
export {
  readDb,
  readTarget,
  readDbEnvShape,
  ReadRouting,
  rywKey,
  type ReadTarget,
  type ReplicaStatus,
  type FallbackReason,
} from './read-db.js';
