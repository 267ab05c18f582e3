// Memory/throughput check of sendSpreadsheet: 1M rows x 8 columns over real HTTP.
// Run: pnpm --filter @csp/service-kit exec tsx --conditions=source bench/spreadsheet-1m.ts [rows]
import Fastify from 'fastify';
import { sendSpreadsheet } from '../src/spreadsheet.js';

const total = Number(process.argv[2] ?? 1_000_000);
const app = Fastify();
app.get('/x', async (_request, reply) => {
  function* rows() {
    for (let i = 1; i <= total; i++) {
      yield { id: i, code: `C${i}`, name: `Agent name ${i}`, month: '202401', amount: `${i}.50`, rate: '3.3', status: 'ACTIVE', note: 'n' };
    }
  }
  return sendSpreadsheet(reply, {
    fileName: 'bench.xlsx',
    columns: ['id', 'code', 'name', 'month', 'amount', 'rate', 'status', 'note'].map((key) => ({ header: key, key })),
    rows: rows(),
  });
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };

let peakRss = 0;
let peakHeap = 0;
let peakExternal = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakExternal = Math.max(peakExternal, m.external);
}, 200);

// The client is curl in its own process, so only the server's memory is measured.
const started = Date.now();
const cpuBefore = process.cpuUsage();
const { promisify } = await import('node:util');
const { execFile } = await import('node:child_process');
const { stdout } = await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{size_download}', `http://127.0.0.1:${address.port}/x`]);
const bytes = Number(stdout);
clearInterval(sampler);
const cpu = process.cpuUsage(cpuBefore);
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
console.log(
  `${total} rows: ${((Date.now() - started) / 1000).toFixed(1)} s, cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, ${mb(bytes)} xlsx, peak rss ${mb(peakRss)}, peak heap ${mb(peakHeap)}, peak external ${mb(peakExternal)}`,
);
await app.close();
