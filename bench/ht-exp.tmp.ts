import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
async function main(): Promise<void> {
  const MODE = process.env.MODE ?? 'off';
  const N = Number(process.env.N ?? 60000);
  const body = JSON.stringify({ success: true, code: '0000', message: 'Success', data: { userId: 1, loginId: 'admin', roles: ['SUPER_ADMIN'] } });
  const stub = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  const { buildGatewayApp } = await import('../services/gateway/src/app.js');
  const { loadGatewayConfig } = await import('../services/gateway/src/config.js');
  const { startTracing } = await import('../packages/service-kit/src/ops.js');
  const env = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', AUTH_PLATFORM_URL: stubUrl, HOST: '127.0.0.1' };
  if (MODE === 'on') await startTracing('gateway', { OTEL_TRACES_EXPORTER: 'memory' }, { synchronousContext: true });
  const app = await buildGatewayApp(loadGatewayConfig(env));
  await app.ready();
  const request = { method: 'GET' as const, url: '/api/auth/me', headers: { authorization: 'Bearer bench' } };
  for (let r = 0; r < 3; r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < N; i += 1) await app.inject(request);
    const used = process.cpuUsage(before);
    console.log(MODE, ((used.user + used.system) / N).toFixed(1), 'µs');
  }
  await app.close(); stub.close(); process.exit(0);
}
await main();
