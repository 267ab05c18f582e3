import Fastify from 'fastify';
const app = Fastify();
app.get('/api/auth/*', async () => ({ ok: true }));
await app.ready();
for (let r = 0; r < 4; r++) {
  for (let i = 0; i < 20000; i++) await app.inject({ method: 'GET', url: '/api/auth/me' });
  global.gc?.();
  console.log(r, (process.memoryUsage().heapUsed / 1e6).toFixed(0), 'MB');
}
