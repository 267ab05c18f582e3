import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { expect, platform, test } from './fixtures.js';

// the app the gateway serves: services/web/dist, or WEB_DIST_DIR when a run builds elsewhere
const distDir = process.env.WEB_DIST_DIR ?? fileURLToPath(new URL('../../dist/', import.meta.url));
const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
const asset = /src="\/(assets\/[^"]+\.js)"/.exec(indexHtml)![1]!;

test.describe('the gateway serves the built app at / and leaves the API alone', () => {
  test('index.html for / and for any page path, never cached', async ({ request }) => {
    for (const path of ['/', '/org/agents', '/settle/explain/12']) {
      const res = await request.get(`${platform.url}${path}`);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toContain('text/html');
      expect(res.headers()['cache-control']).toBe('no-cache');
      expect(await res.text()).toBe(indexHtml);
    }
  });

  test('hashed assets are cached for a year; a missing asset is a 404, not the app', async ({ request }) => {
    const res = await request.get(`${platform.url}/${asset}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/javascript');
    expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request.get(`${platform.url}/assets/missing-0000.js`)).status()).toBe(404);
  });

  test('/api, /v3/api-docs, /swagger-ui and /ops keep their own answers', async ({ request }) => {
    const api = await request.get(`${platform.url}/api/no-such-thing`);
    expect(api.status()).toBe(404);
    expect(((await api.json()) as { code: string }).code).toBe('E404');
    const docs = await request.get(`${platform.url}/v3/api-docs`);
    expect(docs.headers()['content-type']).toContain('application/json');
    const ui = await request.get(`${platform.url}/swagger-ui/`);
    expect(await ui.text()).not.toBe(indexHtml);
    const ops = await request.get(`${platform.url}/ops/no-such-page`, { maxRedirects: 0 });
    expect(await ops.text()).not.toBe(indexHtml);
  });
});
