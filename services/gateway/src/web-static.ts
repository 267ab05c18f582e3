import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Paths the web client never answers: APIs, docs and operations keep their own (enveloped) 404. */
const NOT_WEB = /^\/(api|v3|swagger-ui|ops)(\/|$)/;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** Vite puts content-hashed files under /assets: a new build gets new names, so they never go stale. */
const HASHED_CACHE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

/** services/web/dist, seen from src/ (tsx, tests) and from dist/ (built gateway) alike; WEB_DIST_DIR overrides. */
export function defaultWebRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.WEB_DIST_DIR ? resolve(env.WEB_DIST_DIR) : fileURLToPath(new URL('../../web/dist/', import.meta.url));
}

async function fileIn(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const full = resolve(join(root, decoded));
  if (full !== root && !full.startsWith(root + sep)) return undefined;
  const info = await stat(full).catch(() => undefined);
  return info?.isFile() ? full : undefined;
}

/** The build writes `.br` and `.gz` beside each text file (services/web vite.config.ts `precompress`). */
const ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** The precompressed sibling the browser accepts (brotli first), when the build wrote one. */
async function precompressed(file: string, acceptEncoding: string | undefined): Promise<{ file: string; encoding: string } | undefined> {
  if (!acceptEncoding) return undefined;
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || !/^\s*q=0(\.0*)?\s*$/.test(q))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  for (const { encoding, suffix } of ENCODINGS) {
    if (!accepted.has(encoding)) continue;
    const info = await stat(file + suffix).catch(() => undefined);
    if (info?.isFile()) return { file: file + suffix, encoding };
  }
  return undefined;
}

/**
 * Serves the built web client (services/web) at `/`: files of the build as they are, hashed assets
 * cached for a year, and every other page path answered with index.html (never cached) so that the
 * client's router takes over. Not registered when no build is present (the API works without it).
 */
export async function registerWebStatic(app: FastifyInstance, root = defaultWebRoot()): Promise<boolean> {
  const webRoot = resolve(root);
  const indexPath = join(webRoot, 'index.html');
  const index = await readFile(indexPath).catch(() => undefined);
  if (!index) {
    app.log.info({ webRoot }, 'no web client build found; / is not served');
    return false;
  }

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    if (NOT_WEB.test(path)) return reply.callNotFound();
    const file = path === '/' ? undefined : await fileIn(webRoot, path);
    if (file) {
      const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      const cache = path.startsWith('/assets/') ? HASHED_CACHE : NO_CACHE;
      const packed = await precompressed(file, request.headers['accept-encoding']);
      if (packed) reply.header('content-encoding', packed.encoding).header('vary', 'accept-encoding');
      return reply.type(type).header('cache-control', cache).send(createReadStream(packed?.file ?? file));
    }
    // A missing file (it has an extension) is a 404, not the app: a stale asset must fail visibly.
    if (extname(path) !== '') return reply.callNotFound();
    // Re-read so that a rebuild while the gateway runs is picked up; the file is small.
    const html = await readFile(indexPath).catch(() => index);
    return reply.type(CONTENT_TYPES['.html']!).header('cache-control', NO_CACHE).send(html);
  };

  app.get('/', handler);
  app.get('/*', handler);
  return true;
}
