import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { BATCH_CHUNK_STATUSES, BATCH_STATUSES } from '../values.js';
import type { DefaultedTimestamp, Timestamp } from './platform.js';

/** Settlement batch status tables (migrations V020, V100), written by packages/batch. */

export type BatchStatus = (typeof BATCH_STATUSES)[number];
export type BatchChunkStatus = (typeof BATCH_CHUNK_STATUSES)[number];

/** bigint counters with a database default (pg returns int8 as a number, see pool.ts). */
type Counter = ColumnType<number, number | undefined, number>;

export interface BatchJobLogTable {
  job_log_id: Generated<number>;
  job_name: string;
  /** jsonb, written as a JSON string. */
  job_params: ColumnType<unknown, string | undefined, string>;
  settle_month: string;
  company_code: string | null;
  status: BatchStatus;
  /** NULL on the run row. */
  step_name: string | null;
  /** The run row's id on a step row; NULL on the run row. */
  parent_job_log_id: number | null;
  step_seq: number | null;
  run_attempt: Counter;
  /** uuid (V100): random per run row, part of every BullMQ job id and payload of the run. */
  run_key: Generated<string>;
  skipped: Generated<boolean>;
  skip_reason: string | null;
  total_count: Counter;
  success_count: Counter;
  error_count: Counter;
  skipped_count: Counter;
  error_message: string | null;
  started_at: Timestamp | null;
  ended_at: Timestamp | null;
  duration_ms: number | null;
  requested_by: number | null;
  /** Why the watchdog considers this active run stalled (V100); NULL when it is not. */
  watchdog_reason: string | null;
  watchdog_at: Timestamp | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface BatchChunkTable {
  chunk_id: Generated<number>;
  parent_job_log_id: number;
  step_name: string;
  chunk_no: number;
  range_start: number;
  range_end: number;
  status: ColumnType<BatchChunkStatus, BatchChunkStatus | undefined, BatchChunkStatus>;
  total_count: Counter;
  success_count: Counter;
  error_count: Counter;
  skipped_count: Counter;
  attempts: Counter;
  error_message: string | null;
  started_at: Timestamp | null;
  ended_at: Timestamp | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface BatchTables {
  batch_job_log: BatchJobLogTable;
  batch_chunk: BatchChunkTable;
}

export type BatchJobLog = Selectable<BatchJobLogTable>;
export type NewBatchJobLog = Insertable<BatchJobLogTable>;
export type BatchJobLogUpdate = Updateable<BatchJobLogTable>;
export type BatchChunk = Selectable<BatchChunkTable>;
export type NewBatchChunk = Insertable<BatchChunkTable>;
