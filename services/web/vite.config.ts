import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { bootScript } from './src/api/boot-fetch.js';

const ROUTES_FILE = fileURLToPath(new URL('./src/routes.tsx', import.meta.url));

/** A route path of src/routes.tsx as a pattern of the address bar (`:param` one segment, `*` the rest). */
function routePattern(path: string): string {
  const parts = path
    .replace(/^\/+/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => (p === '*' ? '.*' : p.startsWith(':') ? '[^/]+' : p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')));
  if (parts.length === 0) return '^/$';
  return `^/${parts.join('/')}/?$`.replace('/.*/?$', '(/.*)?$');
}

/** An inline script put into the page before the first match of `before`. */
function insertScript(html: string, script: string, before: RegExp): string {
  const at = html.search(before);
  if (at < 0) throw new Error(`index.html: no place for an inline script (${before.source})`);
  return `${html.slice(0, at)}<script>${script}</script>\n    ${html.slice(at)}`;
}

/**
 * The page chunk of the address asked for, fetched with the app instead of after it: every page is a
 * lazy route, and the layout renders it only once the user's menu has come, so on a first visit the
 * page's code used to be a second round trip after the entry (and the page's data a third). A small
 * inline script in index.html adds `modulepreload` links for the chunks of the page that matches
 * location.pathname (read from the `lazy(() => import(...))` pages and the `path`s of src/routes.tsx).
 */
function routePreload(): Plugin {
  return {
    name: 'csp-route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return;
        const source = readFileSync(ROUTES_FILE, 'utf8');
        const modules = new Map<string, string>();
        for (const m of source.matchAll(/const (\w+) = (?:lazy|page)\(\(\) => import\('\.\/([^']+)\.js'\)\)/g)) modules.set(m[1]!, `/src/${m[2]}.tsx`);
        const routes: { pattern: string; page: string }[] = [];
        for (const m of source.matchAll(/(?:path: '([^']+)'|index: true)[\s\S]{0,160}?<(\w+Page) \/>/g)) {
          if (modules.has(m[2]!)) routes.push({ pattern: routePattern(m[1] ?? '/'), page: m[2]! });
        }
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const entry = chunks.find((c) => c.isEntry);
        const loaded = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const filesOf = (module: string): string[] => {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(module));
          if (!chunk) return [];
          const files = new Set<string>();
          const visit = (name: string) => {
            if (files.has(name) || loaded.has(name)) return;
            files.add(name);
            for (const imported of chunks.find((c) => c.fileName === name)?.imports ?? []) visit(imported);
          };
          visit(chunk.fileName);
          return [...files];
        };
        // catch-all routes last: the first pattern that matches wins, as in the router
        const table = routes
          .map((r) => [r.pattern, filesOf(modules.get(r.page)!)] as const)
          .filter(([, files]) => files.length > 0)
          .sort(([a], [b]) => Number(a.includes('.*')) - Number(b.includes('.*')));
        const script =
          `(function(){var r=${JSON.stringify(table)},p=location.pathname;` +
          `for(var i=0;i<r.length;i++){if(new RegExp(r[i][0]).test(p)){r[i][1].forEach(function(f){` +
          `var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href='/'+f;document.head.appendChild(l)});return}}})()`;
        // after the entry's own files (asked for first), before the stylesheet (a classic script waits for the stylesheets above it)
        return insertScript(html, script, /<link rel="stylesheet"|<\/head>/);
      },
    },
  };
}

/**
 * The first load's calls started by index.html itself, while the app's code is still on its way
 * (src/api/boot-fetch.ts, whose source is inlined here). Asked for after the code: a browser talks to
 * one host over six connections (HTTP/1.1), and calls that wait on the server would hold them.
 */
function bootCalls(): Plugin {
  return {
    name: 'csp-boot-calls',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      // after the route preload's script (plugins run in order): the page's code is asked for before the calls
      handler: (html) => insertScript(html, bootScript(), /<link rel="stylesheet"|<\/head>/),
    },
  };
}

/**
 * Writes a `.br` and a `.gz` beside every text file of the build (once, at build time, at the highest
 * levels): the gateway sends them to browsers that accept them. Served uncompressed, the JavaScript was
 * Lighthouse's largest cost (1.2-2 MB per page, ~1 s on the settlement list and the cockpit).
 */
function precompress(): Plugin {
  return {
    name: 'csp-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const names = Object.keys(bundle).filter((n) => /\.(js|css|svg|json|html)$/.test(n));
      for (const name of names) {
        const file = join(dir, name);
        const body = await readFile(file);
        if (body.length < 1024) continue;
        await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/** `pnpm dev:web`: the app on :3000, `/api` proxied to the gateway (GATEWAY_URL, default :8080). */
export default defineConfig({
  plugins: [react(), routePreload(), bootCalls(), precompress()],
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      '/api': { target: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The one big chunk is echarts, loaded only by the KPI pages.
    chunkSizeWarningLimit: 800,
  },
});
