/** Error codes of spec section 7: one table, one class; routes throw, the error handler renders. */
export const ERRORS = {
  SUCCESS: { code: '0000', status: 200, message: 'Success' },
  BAD_REQUEST: { code: 'E400', status: 400, message: 'Bad request' },
  UNAUTHORIZED: { code: 'E401', status: 401, message: 'Authentication is required' },
  FORBIDDEN: { code: 'E403', status: 403, message: 'Access denied' },
  NOT_FOUND: { code: 'E404', status: 404, message: 'Resource not found' },
  INVALID_PARAMETER: { code: 'E411', status: 400, message: 'Invalid parameter' },
  INTERNAL_ERROR: { code: 'E500', status: 500, message: 'Internal server error' },
  TOKEN_EXPIRED: { code: 'A001', status: 401, message: 'Token expired' },
  LOGIN_FAIL: { code: 'A003', status: 401, message: 'Invalid login ID or password' },
  ACCOUNT_LOCKED: { code: 'A004', status: 403, message: 'Account is locked' },
  ALREADY_CONFIRMED: { code: 'B001', status: 400, message: 'Already confirmed' },
  RULE_VERSION_CONFLICT: { code: 'B002', status: 409, message: 'The data was changed by someone else; reload and retry' },
  APPROVAL_REQUIRED: { code: 'B003', status: 400, message: 'Approval is required' },
  SYSTEM_CODE_LOCKED: { code: 'B008', status: 400, message: 'System codes cannot be changed' },
  DUPLICATE_DATA: { code: 'B009', status: 409, message: 'Duplicate data' },
  BATCH_RUNNING: { code: 'B010', status: 409, message: 'A batch is already running' },
  FILE_NOT_FOUND: { code: 'F001', status: 404, message: 'File not found' },
  FILE_UPLOAD_FAIL: { code: 'F002', status: 500, message: 'File upload failed' },
} as const satisfies Record<string, { code: string; status: number; message: string }>;

export type ErrorName = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorName]['code'];

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly errorName: ErrorName;
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly data: unknown;

  constructor(name: ErrorName, message?: string, data?: unknown) {
    const entry = ERRORS[name];
    super(message ?? entry.message);
    this.name = 'AppError';
    this.errorName = name;
    this.code = entry.code;
    this.statusCode = entry.status;
    this.data = data;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** E404 with a message naming what was looked for, e.g. `notFound('Agent 12')`. */
export function notFound(what?: string): AppError {
  return new AppError('NOT_FOUND', what ? `${what} not found` : undefined);
}

/** E411 carrying one field error in the same shape as a validation failure. */
export function invalid(field: string, message: string): AppError {
  return new AppError('INVALID_PARAMETER', message, { errors: [{ field, message }] satisfies FieldError[] });
}

export function duplicate(message?: string): AppError {
  return new AppError('DUPLICATE_DATA', message);
}

export function forbidden(message?: string): AppError {
  return new AppError('FORBIDDEN', message);
}

export function unauthorized(message?: string): AppError {
  return new AppError('UNAUTHORIZED', message);
}
