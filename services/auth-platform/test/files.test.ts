import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, setup, type Ctx } from './helpers.js';

let ctx: Ctx;
let headers: Record<string, string>;

beforeAll(async () => {
  ctx = await setup();
  headers = bearer(ctx.adminToken);
});
afterAll(async () => {
  await ctx?.close();
});

const BOUNDARY = '----csp-test-boundary';

function multipartHead(fileName: string, contentType: string): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
}
const multipartTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

function upload(content: Buffer, fileName: string, query = '', token = ctx.adminToken, contentType = 'text/plain') {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/files/upload${query}`,
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([multipartHead(fileName, contentType), content, multipartTail]),
  });
}

/** Lists every file below the storage root. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(ctx.storageDir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('files', () => {
  it('round trip: upload, list by group, download twice (download_count 2)', async () => {
    const content = Buffer.from('hello, settlement\n');
    const res = await upload(content, 'hello.txt', '?groupId=G1');
    expect(res.statusCode).toBe(200);
    const file = res.json().data;
    expect(file).toMatchObject({
      groupId: 'G1',
      originalName: 'hello.txt',
      fileSize: content.length,
      contentType: 'text/plain',
      downloadCount: 0,
    });

    const row = await ctx.db.selectFrom('file_storage').selectAll().where('file_id', '=', file.fileId).executeTakeFirstOrThrow();
    const now = new Date();
    expect(row.file_path).toMatch(new RegExp(`^${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}/[0-9a-f-]{36}\\.txt$`));
    expect(row.stored_name).not.toBe('hello.txt');
    expect(await storedFiles()).toContain(join(ctx.storageDir, row.file_path));

    const list = await ctx.app.inject({ method: 'GET', url: '/api/files?groupId=G1', headers });
    expect(list.json().data).toMatchObject({ total: 1, list: [{ fileId: file.fileId, originalName: 'hello.txt' }] });

    for (let i = 0; i < 2; i++) {
      const dl = await ctx.app.inject({ method: 'GET', url: `/api/files/${file.fileId}`, headers });
      expect(dl.statusCode).toBe(200);
      expect(dl.rawPayload.equals(content)).toBe(true);
      expect(dl.headers['content-type']).toBe('text/plain');
      expect(dl.headers['content-length']).toBe(String(content.length));
      expect(dl.headers['content-disposition']).toContain('hello.txt');
    }
    const after = await ctx.db.selectFrom('file_storage').select('download_count').where('file_id', '=', file.fileId).executeTakeFirstOrThrow();
    expect(after.download_count).toBe(2);
  });

  it('assigns a group id when none is given and keeps a non-ASCII name intact', async () => {
    const res = await upload(Buffer.from('x'), '정산 내역.csv', '', ctx.adminToken, 'text/csv');
    const file = res.json().data;
    expect(file.groupId).toMatch(/^[0-9a-f-]{36}$/);
    expect(file.originalName).toBe('정산 내역.csv');
    const dl = await ctx.app.inject({ method: 'GET', url: `/api/files/${file.fileId}`, headers });
    expect(dl.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('정산 내역.csv')}`);
  });

  it('a file that does not exist, was deleted, or is gone from disk is F001', async () => {
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/files/999999', headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, code: 'F001' });

    const file = (await upload(Buffer.from('bye'), 'bye.txt', '?groupId=G2')).json().data;
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/files/${file.fileId}`, headers });
    expect(del.statusCode).toBe(200);
    const row = await ctx.db.selectFrom('file_storage').select('is_deleted').where('file_id', '=', file.fileId).executeTakeFirstOrThrow();
    expect(row.is_deleted).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/files/${file.fileId}`, headers })).json().code).toBe('F001');
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/files/${file.fileId}`, headers })).json().code).toBe('F001');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/files?groupId=G2', headers })).json().data.total).toBe(0);

    const lost = (await upload(Buffer.from('lost'), 'lost.txt')).json().data;
    const lostRow = await ctx.db.selectFrom('file_storage').select('file_path').where('file_id', '=', lost.fileId).executeTakeFirstOrThrow();
    await rm(join(ctx.storageDir, lostRow.file_path));
    const gone = await ctx.app.inject({ method: 'GET', url: `/api/files/${lost.fileId}`, headers });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('F001');
  });

  it('rejects a file over UPLOAD_MAX_SIZE_MB with E400 and keeps nothing of it', async () => {
    await ctx.db.updateTable('system_config').set({ config_value: '1' }).where('config_key', '=', 'UPLOAD_MAX_SIZE_MB').execute();
    try {
      const before = (await storedFiles()).length;
      const rows = await ctx.db.selectFrom('file_storage').select('file_id').execute();
      const res = await upload(Buffer.alloc(1024 * 1024 + 1, 1), 'big.bin', '?groupId=BIG');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'E400', message: 'File exceeds 1 MB' });
      expect((await storedFiles()).length).toBe(before);
      expect(await ctx.db.selectFrom('file_storage').select('file_id').execute()).toHaveLength(rows.length);
      // Exactly at the limit is fine.
      expect((await upload(Buffer.alloc(1024 * 1024, 1), 'edge.bin')).statusCode).toBe(200);
    } finally {
      await ctx.db.updateTable('system_config').set({ config_value: '100' }).where('config_key', '=', 'UPLOAD_MAX_SIZE_MB').execute();
    }
  });

  it('the default limit is 100 MB: a streamed 100 MB + 1 byte upload is rejected', async () => {
    const total = 100 * 1024 * 1024 + 1;
    const chunk = Buffer.alloc(1024 * 1024, 7);
    async function* body() {
      yield multipartHead('huge.bin', 'application/octet-stream');
      let sent = 0;
      while (sent < total) {
        const n = Math.min(chunk.length, total - sent);
        yield n === chunk.length ? chunk : chunk.subarray(0, n);
        sent += n;
      }
      yield multipartTail;
    }
    const before = (await storedFiles()).length;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Readable.from(body()),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('File exceeds 100 MB');
    expect((await storedFiles()).length).toBe(before);
  });

  it('a request without a file part is E411; upload needs ATTACHMENT CREATE', async () => {
    const json = await ctx.app.inject({ method: 'POST', url: '/api/files/upload', headers, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('E411');
    const agent = await upload(Buffer.from('x'), 'a.txt', '', await ctx.tokenFor('AGENT'));
    expect(agent.statusCode).toBe(403);
  });

  it('a body cut off inside the file is E411 on "file" (not F002) and keeps nothing of it', async () => {
    const before = (await storedFiles()).length;
    const rows = (await ctx.db.selectFrom('file_storage').select('file_id').execute()).length;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/files/upload?groupId=CUT',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Buffer.concat([multipartHead('cut.txt', 'text/plain'), Buffer.from('half of the file')]),
    });
    expect([res.statusCode, res.json().code, res.json().data]).toEqual([
      400,
      'E411',
      { errors: [{ field: 'file', message: 'the multipart/form-data body is malformed or incomplete (the request ended inside a part)' }] },
    ]);
    expect((await storedFiles()).length).toBe(before);
    expect(await ctx.db.selectFrom('file_storage').select('file_id').execute()).toHaveLength(rows);
  });

  it('a multipart content type without a boundary is E411 on "file" (not E500)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/files/upload',
      headers: { ...headers, 'content-type': 'multipart/form-data' },
      payload: Buffer.concat([multipartHead('a.txt', 'text/plain'), Buffer.from('x'), multipartTail]),
    });
    expect([res.statusCode, res.json().code, res.json().data]).toEqual([
      400,
      'E411',
      { errors: [{ field: 'file', message: 'the multipart/form-data body is malformed or incomplete (Multipart: Boundary not found)' }] },
    ]);
  });
});
