import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { UnreadableFileError } from './limits.js';

/** An entry of a zip file's central directory. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** As the central directory declares it; reading stops with an error past it. */
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** The file is not a zip archive we can read (damaged, encrypted, zip64). */
export class ZipFormatError extends UnreadableFileError {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
/** End-of-central-directory record (22 bytes) plus the longest comment. */
const MAX_TAIL = 22 + 0xffff;

/**
 * Reads the central directory of a zip file on disk (random access, so entries are found without
 * reading the archive through). Uploads are spooled to disk first for this reason.
 */
export async function readZipDirectory(path: string): Promise<Map<string, ZipEntry>> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const tailLength = Math.min(size, MAX_TAIL);
    const tail = Buffer.alloc(tailLength);
    await fh.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new ZipFormatError('the file is not a valid xlsx (zip) file');
    const count = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) {
      throw new ZipFormatError('zip64 spreadsheets (over 4 GB) are not supported');
    }
    if (directoryOffset + directorySize > size) throw new ZipFormatError('the xlsx (zip) file is truncated');
    const directory = Buffer.alloc(directorySize);
    await fh.read(directory, 0, directorySize, directoryOffset);

    const entries = new Map<string, ZipEntry>();
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL_SIGNATURE) {
        throw new ZipFormatError('the xlsx (zip) directory is damaged');
      }
      const flags = directory.readUInt16LE(p + 8);
      const method = directory.readUInt16LE(p + 10);
      const compressedSize = directory.readUInt32LE(p + 20);
      const uncompressedSize = directory.readUInt32LE(p + 24);
      const nameLength = directory.readUInt16LE(p + 28);
      const extraLength = directory.readUInt16LE(p + 30);
      const commentLength = directory.readUInt16LE(p + 32);
      const localHeaderOffset = directory.readUInt32LE(p + 42);
      const name = directory.toString((flags & 0x800) !== 0 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
      if ((flags & 0x1) !== 0) throw new ZipFormatError('encrypted spreadsheets are not supported');
      if (localHeaderOffset + 30 + compressedSize > size) throw new ZipFormatError('the xlsx (zip) file is truncated');
      entries.set(name, { name, method, compressedSize, uncompressedSize, localHeaderOffset });
      p += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await fh.close();
  }
}

/**
 * Fails the stream once more than `limit` bytes came through: an entry that inflates past the size
 * its directory declared is damaged or a zip bomb, and is not read on.
 */
function byteCap(entry: ZipEntry, limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) return done(new ZipFormatError(`zip entry ${entry.name} inflates past its declared size of ${limit} bytes`));
      done(null, chunk);
    },
  });
}

/**
 * Refuses an entry whose declared uncompressed size is over `maxBytes` (checked from the central
 * directory, before a byte of it is inflated).
 */
export function assertEntrySize(entry: ZipEntry, maxBytes: number, what: string): void {
  if (entry.uncompressedSize > maxBytes) {
    throw new ZipFormatError(
      `the ${what} of the xlsx file expands to ${entry.uncompressedSize.toLocaleString('en-US')} bytes; at most ${maxBytes.toLocaleString('en-US')} are accepted`,
    );
  }
}

/** A stream of the entry's uncompressed bytes (stored or deflated entries), never more than the directory declares. */
export async function openZipEntry(path: string, entry: ZipEntry): Promise<Readable> {
  const fh = await open(path, 'r');
  const header = Buffer.alloc(30);
  try {
    await fh.read(header, 0, 30, entry.localHeaderOffset);
  } finally {
    await fh.close();
  }
  if (header.readUInt32LE(0) !== LOCAL_SIGNATURE)
    throw new ZipFormatError(`zip entry ${entry.name} is damaged`);
  const dataStart = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (entry.compressedSize === 0) {
    const empty = new PassThrough();
    empty.end();
    return empty;
  }
  const raw = createReadStream(path, {
    start: dataStart,
    end: dataStart + entry.compressedSize - 1,
    highWaterMark: 256 * 1024,
  });
  if (entry.method !== 0 && entry.method !== 8) {
    raw.destroy();
    throw new ZipFormatError(`zip compression method ${entry.method} is not supported`);
  }
  const cap = byteCap(entry, entry.uncompressedSize);
  const damaged = (err: Error) =>
    cap.destroy(err instanceof ZipFormatError ? err : new ZipFormatError(`zip entry ${entry.name} is damaged: ${err.message}`));
  raw.on('error', damaged);
  if (entry.method === 0) return raw.pipe(cap);
  const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
  inflate.on('error', damaged);
  cap.on('close', () => {
    raw.destroy();
    inflate.destroy();
  });
  return raw.pipe(inflate).pipe(cap);
}

/** Small parts (workbook, relationships, styles) are read whole: at most this much each. */
export const MAX_PART_BYTES = 16 * 1024 * 1024;

/** The whole entry as UTF-8 text (for the small parts: workbook, relationships, styles). */
export async function readZipText(path: string, entry: ZipEntry): Promise<string> {
  assertEntrySize(entry, MAX_PART_BYTES, entry.name);
  const stream = await openZipEntry(path, entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
