/** The spec 1.1 envelope every API answers with. */
export interface Envelope<T> {
  success: boolean;
  code: string;
  message: string;
  data?: T;
  timestamp?: string;
}

export interface PageResponse<T> {
  list: T[];
  pageNum: number;
  pageSize: number;
  pages: number;
  total: number;
  totalEstimated?: boolean;
}

export interface FieldError {
  field: string;
  message: string;
}

/** A failed call: the server's code and message, and for E411 the field errors. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'success' in value && 'code' in value;
}

export function toApiError(body: unknown, status: number): ApiError {
  if (isEnvelope(body)) {
    const errors = (body.data as { errors?: FieldError[] } | undefined)?.errors;
    return new ApiError(body.code, body.message, status, Array.isArray(errors) ? errors : []);
  }
  return new ApiError(status >= 500 ? 'E500' : 'E400', `HTTP ${status}`, status);
}

/**
 * The one place an envelope is opened: the data of a success, or an ApiError carrying the code,
 * message and field errors of a failure. Works on openapi-fetch results.
 */
export function unwrap<T>(result: { data?: unknown; error?: unknown; response: Response }): T {
  const { response } = result;
  const body = result.data ?? result.error;
  if (!response.ok || !isEnvelope(body) || !body.success) throw toApiError(body, response.status);
  return body.data as T;
}
