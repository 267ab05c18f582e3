import Fastify from 'fastify';
import { Pool } from 'undici';
const app = Fastify();
app.get('/api/auth/*', async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });
const pool = new Pool(`http://127.0.0.1:${app.server.address().port}`, { connections: 4 });
for (let r = 0; r < 4; r++) {
  for (let i = 0; i < 20000; i++) { const res = await pool.request({ path: '/api/auth/me', method: 'GET' }); await res.body.text(); }
  global.gc?.();
  console.log(r, (process.memoryUsage().heapUsed / 1e6).toFixed(0), 'MB');
}
process.exit(0);
