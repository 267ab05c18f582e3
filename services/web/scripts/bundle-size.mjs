#!/usr/bin/env node
// Gzip size of the built app's entry chunk and of all JS the first page load fetches (entry plus
// its modulepreload links), and the largest lazy chunks. Run after `vite build`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map((m) => m[1]);
if (!entry) throw new Error('no entry script in dist/index.html');
const initial = [entry, ...preloads];
const initialGz = initial.reduce((sum, f) => sum + gz(f), 0);
const lazy = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js') && !initial.includes(`assets/${f}`))
  .map((f) => ({ f, size: gz(`assets/${f}`) }))
  .sort((a, b) => b.size - a.size);

console.log(`entry chunk ${entry}: ${kb(gz(entry))} gzip`);
console.log(`first load (entry + ${preloads.length} preloaded chunks): ${kb(initialGz)} gzip`);
console.log(`lazy chunks: ${lazy.length}, largest: ${lazy.slice(0, 5).map((l) => `${l.f} ${kb(l.size)}`).join(', ')}`);
