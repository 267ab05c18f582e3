import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { buildApp } from '../src/app.js';
import { intakeDb, type IntakeDb } from '../src/db.js';

export interface Api {
  ctx: TestContext<ServiceApp>;
  db: IntakeDb;
  storageDir: string;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: any }>;
  upload(
    url: string,
    fields: Record<string, string>,
    file: UploadFile | undefined,
    method?: 'POST' | 'PUT',
  ): Promise<{ status: number; body: any }>;
  /** Bytes of a stored file (file_storage row). */
  storedFile(fileId: number): Promise<Buffer>;
  close(): Promise<void>;
}

export interface UploadFile {
  filename: string;
  content: Buffer;
  contentType?: string;
}

/** A multipart/form-data body: text fields first, then the file (field name `file`). */
export function multipart(
  fields: Record<string, string>,
  file?: UploadFile,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----intake-test-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function startApi(): Promise<Api> {
  const storageDir = await mkdtemp(join(tmpdir(), 'intake-files-'));
  const ctx = await createTestContext({
    buildApp,
    serviceName: 'intake',
    env: { FILE_STORAGE_DIR: storageDir },
  });
  const auth = (token?: string) => ({ authorization: `Bearer ${token ?? ctx.adminToken}` });
  return {
    ctx,
    db: intakeDb(ctx.db),
    storageDir,
    async call(method, url, body, token) {
      const res = await ctx.app.inject({
        method,
        url,
        headers: auth(token),
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: res.statusCode, body: res.json() };
    },
    async upload(url, fields, file, method = 'POST') {
      const { payload, headers } = multipart(fields, file);
      const res = await ctx.app.inject({ method, url, headers: { ...headers, ...auth() }, payload });
      return { status: res.statusCode, body: res.json() };
    },
    async storedFile(fileId) {
      const row = await intakeDb(ctx.db)
        .selectFrom('file_storage')
        .select('file_path')
        .where('file_id', '=', fileId)
        .executeTakeFirstOrThrow();
      return readFile(join(storageDir, row.file_path));
    },
    async close() {
      await ctx.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** An xlsx workbook with one sheet of the given rows (exceljs, shared strings as Excel writes them). */
export async function xlsx(rows: unknown[][], sheetName = 'Sheet1'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The rows of the first sheet of an xlsx (for checking error files), cell values as text. */
export async function readXlsx(content: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  const bytes = new ArrayBuffer(content.byteLength);
  new Uint8Array(bytes).set(content);
  await wb.xlsx.load(bytes);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  ws.eachRow((row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cell.text;
    });
    rows.push(Array.from(cells, (c) => c ?? ''));
  });
  return rows;
}

export function csv(lines: string[][]): string {
  return (
    lines
      .map((cells) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
      .join('\r\n') + '\r\n'
  );
}
