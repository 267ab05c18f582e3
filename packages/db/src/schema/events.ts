import type { ColumnType, Generated } from 'kysely';
import type { DefaultedTimestamp, Timestamp } from './platform.js';

/** Events between services (migration V060; written and read by packages/events only). */

export const EVENT_OUTBOX_STATUSES = ['PENDING', 'PUBLISHED'] as const;
export const PARKED_EVENT_STATUSES = ['PARKED', 'REPLAYED', 'DISCARDED'] as const;

export type EventOutboxStatus = (typeof EVENT_OUTBOX_STATUSES)[number];
export type ParkedEventStatus = (typeof PARKED_EVENT_STATUSES)[number];

/** jsonb written as a JSON string, read back parsed. */
type JsonColumn = ColumnType<unknown, string, string>;
type Counter = ColumnType<number, number | undefined, number>;

export interface EventOutboxTable {
  event_id: Generated<number>;
  /** uuid: random per row, part of the BullMQ job id */
  event_key: Generated<string>;
  event_type: string;
  /** the owning service whose queue receives the event */
  target: string;
  /** what the event is about, for operators (`WITHDRAW#12`) */
  subject: string | null;
  payload: JsonColumn;
  status: Generated<EventOutboxStatus>;
  publish_count: Counter;
  created_at: DefaultedTimestamp;
  published_at: Timestamp | null;
  /** W3C traceparent of the writer (V065), NULL when tracing is off */
  trace_parent: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ProcessedEventTable {
  consumer: string;
  event_id: number;
  event_type: string;
  processed_at: DefaultedTimestamp;
}

export interface ParkedEventTable {
  parked_id: Generated<number>;
  consumer: string;
  event_id: number;
  event_type: string;
  subject: string | null;
  payload: JsonColumn;
  attempts: number;
  error_message: string;
  status: Generated<ParkedEventStatus>;
  parked_at: DefaultedTimestamp;
  resolved_at: Timestamp | null;
  resolved_by: number | null;
}

export interface EventTables {
  event_outbox: EventOutboxTable;
  processed_event: ProcessedEventTable;
  parked_event: ParkedEventTable;
}
