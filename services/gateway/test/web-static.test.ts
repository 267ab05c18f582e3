import Fastify from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebStatic } from '../src/web-static.js';

describe('web client files', () => {
  const root = mkdtempSync(join(tmpdir(), 'csp-web-static-'));
  const app = Fastify();
  const script = 'console.log("안녕하세요");\n'.repeat(200);

  beforeAll(async () => {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(root, 'assets', 'app-1.js'), script);
    writeFileSync(join(root, 'assets', 'app-1.js.br'), brotliCompressSync(script));
    writeFileSync(join(root, 'assets', 'app-1.js.gz'), gzipSync(script));
    writeFileSync(join(root, 'assets', 'plain-1.js'), script);
    expect(await registerWebStatic(app, root)).toBe(true);
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends the brotli file to a browser that accepts it, gzip to one that accepts only gzip, the file itself otherwise', async () => {
    const br = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const refused = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(script);

    const none = await app.inject({ url: '/assets/app-1.js' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(script);
  });

  it('sends a file without a compressed sibling as it is', async () => {
    const res = await app.inject({ url: '/assets/plain-1.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(script);
  });
});
