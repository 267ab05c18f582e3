import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';

/**
 * A streaming zip (PKWARE APPNOTE 6.3.x, §4.3: local headers, data descriptors, central directory) for
 * the spreadsheet export: small parts deflated at once, the big part streamed through one native deflate
 * stream with its CRC from zlib's native crc32. Replaces zip-stream on the export path, whose JavaScript
 * CRC and stream stages cost more than the deflate itself (measured, issue 28). No zip64: a part or the
 * archive above 4 GiB fails the export (an xlsx sheet holds at most 1,048,576 rows, far below it).
 */

const LOCAL_SIG = 0x04034b50;
const DESCRIPTOR_SIG = 0x08074b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
const VERSION = 20; // 2.0: deflate
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;
const DEFLATE = 8;
const MAX_32 = 0xffffffff;

interface CentralEntry {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date (APPNOTE §4.4.6) of `date`, local time like other zip writers. */
function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

export class ZipWriter {
  private offset = 0;
  private readonly entries: CentralEntry[] = [];
  private readonly stamp = dosDateTime(new Date());

  constructor(
    private readonly out: Writable,
    private readonly level: number,
  ) {}

  /** Writes to `out`; resolves at once, or on 'drain' (or close) when `out` is full. */
  private async push(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (this.offset > MAX_32) throw new Error('zip archive above 4 GiB (zip64 is not written)');
    if (!this.out.write(bytes)) await drained(this.out);
  }

  private localHeader(name: Buffer, flags: number, crc: number, compressed: number, size: number): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(LOCAL_SIG, 0);
    h.writeUInt16LE(VERSION, 4);
    h.writeUInt16LE(flags, 6);
    h.writeUInt16LE(DEFLATE, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.day, 12);
    h.writeUInt32LE(crc >>> 0, 14);
    h.writeUInt32LE(compressed, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(name.length, 26);
    return Buffer.concat([h, name]);
  }

  /** A part known in full (the small xlsx parts). */
  async addBuffer(fileName: string, data: Buffer): Promise<void> {
    const name = Buffer.from(fileName, 'utf8');
    const body = deflateRawSync(data, { level: this.level });
    const entry = { name, flags: FLAG_UTF8, crc: crc32(data), compressed: body.length, size: data.length, offset: this.offset };
    await this.push(this.localHeader(name, entry.flags, entry.crc, entry.compressed, entry.size));
    await this.push(body);
    this.entries.push(entry);
  }

  /** Starts a streamed part: `write` its bytes in order, then `end` it (sizes and CRC follow in a data descriptor). */
  async beginStream(fileName: string): Promise<ZipStreamEntry> {
    const name = Buffer.from(fileName, 'utf8');
    const entry: CentralEntry = { name, flags: FLAG_UTF8 | FLAG_DESCRIPTOR, crc: 0, compressed: 0, size: 0, offset: this.offset };
    await this.push(this.localHeader(name, entry.flags, 0, 0, 0));
    return new ZipStreamEntry(this, entry, createDeflateRaw({ level: this.level, chunkSize: 64 * 1024 }));
  }

  /** @internal compressed bytes of a streamed part. */
  async pushBody(bytes: Buffer): Promise<void> {
    await this.push(bytes);
  }

  /** @internal a streamed part is complete. */
  async closeStream(entry: CentralEntry): Promise<void> {
    if (entry.size > MAX_32 || entry.compressed > MAX_32) throw new Error('zip part above 4 GiB (zip64 is not written)');
    const d = Buffer.alloc(16);
    d.writeUInt32LE(DESCRIPTOR_SIG, 0);
    d.writeUInt32LE(entry.crc >>> 0, 4);
    d.writeUInt32LE(entry.compressed, 8);
    d.writeUInt32LE(entry.size, 12);
    await this.push(d);
    this.entries.push(entry);
  }

  /** The central directory and its end record; `out` is ended. */
  async finish(): Promise<void> {
    const start = this.offset;
    const parts: Buffer[] = [];
    for (const e of this.entries) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(CENTRAL_SIG, 0);
      c.writeUInt16LE(VERSION, 4);
      c.writeUInt16LE(VERSION, 6);
      c.writeUInt16LE(e.flags, 8);
      c.writeUInt16LE(DEFLATE, 10);
      c.writeUInt16LE(this.stamp.time, 12);
      c.writeUInt16LE(this.stamp.day, 14);
      c.writeUInt32LE(e.crc >>> 0, 16);
      c.writeUInt32LE(e.compressed, 20);
      c.writeUInt32LE(e.size, 24);
      c.writeUInt16LE(e.name.length, 28);
      c.writeUInt32LE(e.offset, 42);
      parts.push(c, e.name);
    }
    const directory = Buffer.concat(parts);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_SIG, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.push(Buffer.concat([directory, end]));
    this.out.end();
  }
}

/** One streamed part: raw bytes in, deflated bytes out to the archive in order, backpressure both ways. */
export class ZipStreamEntry {
  private failure: Error | undefined;
  private pending: Promise<void> = Promise.resolve();
  private readonly done: Promise<void>;

  constructor(
    private readonly zip: ZipWriter,
    private readonly entry: CentralEntry,
    private readonly deflate: DeflateRaw,
  ) {
    this.done = new Promise((resolve, reject) => {
      deflate.on('data', (chunk: Buffer) => {
        entry.compressed += chunk.length;
        // Compressed chunks go out in order; the deflate stream pauses while the archive's output is full.
        deflate.pause();
        this.pending = this.pending
          .then(() => zip.pushBody(chunk))
          .then(
            () => {
              deflate.resume();
            },
            (err: Error) => {
              this.failure = err;
              deflate.destroy(err);
            },
          );
      });
      deflate.once('end', () => {
        void this.pending.then(resolve, reject);
      });
      deflate.once('error', (err) => {
        this.failure ??= err;
        reject(err);
      });
    });
    this.done.catch(() => undefined); // surfaced by write/end
  }

  /** Adds `bytes` (the caller must not reuse them); resolves when the deflate stream can take more. */
  async write(bytes: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.entry.crc = crc32(bytes, this.entry.crc);
    this.entry.size += bytes.length;
    if (!this.deflate.write(bytes)) await Promise.race([drained(this.deflate), this.done]);
    if (this.failure) throw this.failure;
  }

  async end(): Promise<void> {
    this.deflate.end();
    await this.done;
    await this.zip.closeStream(this.entry);
  }

  destroy(): void {
    this.deflate.destroy();
  }
}

/** 'drain', or the stream closing (a client gone): the caller checks `destroyed` after. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed) return resolve();
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}
