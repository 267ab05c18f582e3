import { Queue, type JobsOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

/** A Redis URL, ioredis options, or an ioredis client (shared, not closed by us). */
export type RedisConnection = string | RedisOptions | Redis;

/** What a job carries: ids only; the consumer reads the event from PostgreSQL (the truth). */
export interface EventJobData {
  eventId: number;
  eventKey: string;
  type: string;
  /** W3C traceparent of the writer (absent when tracing was off): the consumer's span continues it. */
  traceparent?: string;
}

export interface DeliverySettings {
  /** BullMQ key prefix (default BullMQ's own); producers and consumers must agree. */
  prefix?: string | undefined;
  /** Attempts of a consumer before the event is parked. */
  attempts: number;
  /** First retry delay; doubles per attempt. */
  backoffMs: number;
}

const DAY_SECONDS = 24 * 3600;

export function eventQueueName(target: string): string {
  return `events.${target}`;
}

/** Unique to the outbox row (id + random key): a reset database on the same Redis never meets an old job. */
export function eventJobId(eventId: number, eventKey: string): string {
  return `evt-${eventId}-${eventKey}`;
}

export function openRedis(connection: RedisConnection): { client: Redis; owned: boolean } {
  if (connection instanceof Redis) return { client: connection, owned: false };
  // BullMQ: blocking connections must retry forever; it does not support ioredis' keyPrefix.
  const options: RedisOptions = { maxRetriesPerRequest: null };
  const client =
    typeof connection === 'string'
      ? new Redis(connection, options)
      : new Redis({ ...connection, ...options, keyPrefix: undefined });
  client.on('error', () => {});
  return { client, owned: true };
}

/** Producer side: one BullMQ queue per target service, created on first use. */
export class EventQueues {
  private readonly queues = new Map<string, Queue<EventJobData>>();
  private readonly client: Redis;
  private readonly owned: boolean;

  constructor(
    connection: RedisConnection,
    private readonly settings: DeliverySettings,
  ) {
    ({ client: this.client, owned: this.owned } = openRedis(connection));
  }

  queue(target: string): Queue<EventJobData> {
    let queue = this.queues.get(target);
    if (!queue) {
      queue = new Queue<EventJobData>(eventQueueName(target), {
        connection: this.client,
        ...(this.settings.prefix !== undefined ? { prefix: this.settings.prefix } : {}),
      });
      this.queues.set(target, queue);
    }
    return queue;
  }

  jobOptions(jobId: string): JobsOptions {
    return {
      jobId,
      attempts: this.settings.attempts,
      backoff: { type: 'exponential', delay: this.settings.backoffMs },
      // kept a while so a re-publish of the same event is de-duplicated by id; the real protection is
      // processed_event in PostgreSQL
      removeOnComplete: { age: 7 * DAY_SECONDS, count: 50_000 },
      removeOnFail: { age: 30 * DAY_SECONDS },
    };
  }

  /** Adds the events' jobs (one addBulk per target); an id already in the queue is a no-op. */
  async publish(
    events: ReadonlyArray<{ eventId: number; eventKey: string; type: string; target: string; traceParent?: string | null }>,
    jobIdSuffix = '',
  ): Promise<void> {
    const byTarget = new Map<string, typeof events[number][]>();
    for (const e of events) byTarget.set(e.target, [...(byTarget.get(e.target) ?? []), e]);
    for (const [target, list] of byTarget) {
      await this.queue(target).addBulk(
        list.map((e) => ({
          name: e.type,
          data: { eventId: e.eventId, eventKey: e.eventKey, type: e.type, ...(e.traceParent ? { traceparent: e.traceParent } : {}) },
          opts: this.jobOptions(eventJobId(e.eventId, e.eventKey) + jobIdSuffix),
        })),
      );
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    if (this.owned) await this.client.quit().catch(() => this.client.disconnect());
  }
}
