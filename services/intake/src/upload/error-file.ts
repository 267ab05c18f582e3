import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import { writeSpreadsheet, XLSX_CONTENT_TYPE, type SpreadsheetColumn } from '@csp/service-kit';
import type { Kysely } from 'kysely';
import type { Database } from '@csp/db';
import type { FileStore } from '../common/file-store.js';
import { columnLetter } from '../parsing/columns.js';
import type { RowError } from './row-converter.js';

/** Spec 8: the import result returns the first 100 error rows. */
export const ERROR_SAMPLE_SIZE = 100;

interface ErrorLine {
  r: number;
  c: string[];
  /** the target field the row failed on ('' when the row as a whole failed) */
  f: string;
  m: string;
}

/**
 * Collects rejected rows: the first 100 in memory (the response), all of them in a temporary
 * NDJSON file, turned into the error spreadsheet when the import ends: every cell of the rejected
 * rows in the file's own column layout under the file's header, then the row number, the target
 * field and a Reason column (the field and the owning resource's message), so the corrected sheet
 * can be imported again through the same template. Memory stays
 * flat however many rows fail.
 */
export class ErrorSink {
  readonly sample: RowError[] = [];
  count = 0;
  /** The file's header cells (when it has a header row). */
  header: readonly string[] = [];
  private width = 0;
  private readonly path = join(tmpdir(), `csp-intake-errors-${randomUUID()}.ndjson`);
  private stream: WriteStream | undefined;

  async add(error: RowError, cells: readonly string[]): Promise<void> {
    this.count++;
    if (this.sample.length < ERROR_SAMPLE_SIZE) this.sample.push(error);
    this.stream ??= createWriteStream(this.path);
    this.width = Math.max(this.width, cells.length);
    const line: ErrorLine = { r: error.rowNumber, c: [...cells], f: error.field ?? '', m: error.message };
    if (!this.stream.write(`${JSON.stringify(line)}\n`)) await once(this.stream, 'drain');
  }

  /** Writes the error spreadsheet into storage and registers it; undefined when no row failed. */
  async store(
    db: Kysely<Database>,
    files: FileStore,
    name: string,
    userId: number | null,
  ): Promise<number | undefined> {
    if (!this.stream) return undefined;
    this.stream.end();
    await once(this.stream, 'finish');
    const target = await files.allocate(name);
    const width = Math.max(this.width, this.header.length);
    const columns: Array<SpreadsheetColumn<ErrorLine>> = [
      ...Array.from({ length: width }, (_, i) => ({
        header: this.header[i]?.trim() || columnLetter(i),
        key: `c${i}`,
        value: (line: ErrorLine) => line.c[i] ?? '',
      })),
      { header: 'Row', key: 'r', width: 8 },
      { header: 'Field', key: 'f', width: 20 },
      { header: 'Reason', key: 'm', width: 60 },
    ];
    const path = this.path;
    async function* lines(): AsyncGenerator<ErrorLine> {
      const reader = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
      for await (const text of reader) if (text) yield JSON.parse(text) as ErrorLine;
    }
    const pass = new PassThrough();
    await Promise.all([
      writeSpreadsheet(pass, { sheetName: 'Errors', columns, rows: lines() }),
      pipeline(pass, createWriteStream(target.absolute)),
    ]);
    return files.register(db, target, {
      groupId: 'upload-errors',
      originalName: name,
      contentType: XLSX_CONTENT_TYPE,
      createdBy: userId,
    });
  }

  async dispose(): Promise<void> {
    if (this.stream && !this.stream.closed) this.stream.destroy();
    await rm(this.path, { force: true });
  }
}
