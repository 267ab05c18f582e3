import Fastify from 'fastify';
import v8 from 'node:v8';
const app = Fastify();
app.get('/api/auth/*', async () => ({ ok: true }));
await app.ready();
for (let i = 0; i < 3000; i++) await app.inject({ method: 'GET', url: '/api/auth/me' });
global.gc();
const file = v8.writeHeapSnapshot('/tmp/hT/leak.heapsnapshot');
const snap = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8'));
const m = snap.snapshot.meta; const nf = m.node_fields.length; const types = m.node_types[0];
const names = snap.strings; const counts = new Map();
for (let i = 0; i < snap.nodes.length; i += nf) { const t = types[snap.nodes[i]]; const name = names[snap.nodes[i + 1]]; if (t === 'object' || t === 'closure') { const k = t + ':' + name; counts.set(k, (counts.get(k) ?? 0) + 1); } }
console.log([...counts].filter(([, c]) => c >= 2900).sort((a, b) => b[1] - a[1]).slice(0, 30));
