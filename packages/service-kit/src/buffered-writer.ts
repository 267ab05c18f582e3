import type { FastifyBaseLogger } from 'fastify';

export interface BufferedWriterOptions<T> {
  name: string;
  write(rows: T[]): Promise<void>;
  log: FastifyBaseLogger;
  flushIntervalMs?: number;
  maxRows?: number;
  /** Rows kept while the database is unreachable; beyond this the oldest are dropped (and logged). */
  maxPending?: number;
}

/**
 * Collects log rows in memory and writes them in one multi-row INSERT every `flushIntervalMs`
 * or `maxRows` rows. Never throws to the caller: a request is never failed or delayed by logging.
 */
export class BufferedWriter<T> {
  private rows: T[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly maxRows: number;
  private readonly maxPending: number;
  private closed = false;

  constructor(private readonly options: BufferedWriterOptions<T>) {
    this.maxRows = options.maxRows ?? 200;
    this.maxPending = options.maxPending ?? 10_000;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 500);
    this.timer.unref();
  }

  push(row: T): void {
    if (this.closed) return;
    this.rows.push(row);
    if (this.rows.length > this.maxPending) {
      const dropped = this.rows.splice(0, this.rows.length - this.maxPending);
      this.options.log.warn({ writer: this.options.name, dropped: dropped.length }, 'log buffer full, rows dropped');
    }
    if (this.rows.length >= this.maxRows) void this.flush();
  }

  /** Writes everything buffered so far; resolves when it is in the database (or failed and logged). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBatches());
    return this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
  }

  private async writeBatches(): Promise<void> {
    while (this.rows.length > 0) {
      const batch = this.rows.splice(0, this.maxRows);
      try {
        await this.options.write(batch);
      } catch (err) {
        this.options.log.error({ err, writer: this.options.name, rows: batch.length }, 'failed to write log rows');
        return;
      }
    }
  }
}
