import { z } from 'zod';
import { ERRORS, type ErrorName } from './errors.js';

/** The `ApiResponse` envelope of spec 1.1. */
export interface ApiResponse<T = undefined> {
  success: boolean;
  code: string;
  message: string;
  data?: T;
  timestamp: string;
}

export interface PageResponse<T> {
  list: T[];
  pageNum: number;
  pageSize: number;
  pages: number;
  total: number;
  totalEstimated?: boolean;
}

/** An envelope that certainly carries `data` (what `ok(data)` returns). */
export type ApiResponseWith<T> = ApiResponse<T> & { data: T };

export function ok(): ApiResponse<undefined>;
export function ok<T>(data: T, message?: string): ApiResponseWith<T>;
export function ok<T>(data?: T, message?: string): ApiResponse<T> {
  const body: ApiResponse<T> = {
    success: true,
    code: ERRORS.SUCCESS.code,
    message: message ?? ERRORS.SUCCESS.message,
    timestamp: new Date().toISOString(),
  };
  if (data !== undefined) body.data = data;
  return body;
}

/** A failure envelope; routes throw `AppError` instead, this is for the error handler. */
export function fail(name: ErrorName, message?: string, data?: unknown): ApiResponse<unknown> {
  const entry = ERRORS[name];
  const body: ApiResponse<unknown> = {
    success: false,
    code: entry.code,
    message: message ?? entry.message,
    timestamp: new Date().toISOString(),
  };
  if (data !== undefined) body.data = data;
  return body;
}

const envelopeBase = {
  success: z.boolean(),
  code: z.string(),
  message: z.string(),
  timestamp: z.string(),
};

/** Response schema of an `ApiResponse`; without an argument the envelope carries no data. */
export function envelope(): z.ZodObject<typeof envelopeBase & { data: z.ZodOptional<z.ZodUndefined> }>;
export function envelope<T extends z.ZodType>(data: T): z.ZodObject<typeof envelopeBase & { data: T }>;
export function envelope(data?: z.ZodType) {
  return z.object({ ...envelopeBase, data: data ?? z.undefined().optional() });
}

/** Schema of a bare `PageResponse<item>` (what goes into `data`). */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    pageNum: z.number().int(),
    pageSize: z.number().int(),
    pages: z.number().int(),
    total: z.number().int(),
    /** Set when `total` is the planner's estimate (an unfiltered list of a big table). */
    totalEstimated: z.boolean().optional(),
  });
}

/** Response schema of a list endpoint: `ApiResponse<PageResponse<item>>`. */
export function pageResponse<T extends z.ZodType>(item: T) {
  return envelope(pageSchema(item));
}

export function toPage<T>(list: T[], total: number, query: { pageNum: number; pageSize: number }): PageResponse<T> {
  return {
    list,
    pageNum: query.pageNum,
    pageSize: query.pageSize,
    pages: query.pageSize > 0 ? Math.ceil(total / query.pageSize) : 0,
    total,
  };
}
