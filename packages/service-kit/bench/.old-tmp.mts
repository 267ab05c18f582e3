import { PassThrough, type Writable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import Fastify from 'fastify';
function drained(stream: Writable): Promise<void> { return new Promise((resolve) => { const done = () => { stream.off('drain', done); stream.off('close', done); resolve(); }; stream.on('drain', done); stream.on('close', done); }); }
function sheetBacklog(sheet: any) { const stream = sheet.stream; const pipes = stream?.pipes ?? []; const piped = pipes.reduce((s: number, p: any) => s + (p.writableLength ?? p._writableState?.length ?? 0), 0); return { bytes: (stream?.buffers?.length ?? 0) * 65536 + piped, target: pipes[0] }; }
function drainedOrTimeout(target: any, ms: number): Promise<void> { return new Promise((resolve) => { const done = () => { clearTimeout(timer); target?.off('drain', done); resolve(); }; const timer = setTimeout(done, ms); target?.once('drain', done); }); }
async function writeOld(out: PassThrough, options: any) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Sheet1');
  sheet.columns = options.columns.map((c: any) => ({ header: c.header, key: c.key, width: 15 }));
  let count = 0;
  for await (const row of options.rows) {
    sheet.addRow(options.columns.map((c: any) => row[c.key])).commit(); count++;
    if (out.writableNeedDrain) await drained(out);
    if (count % 100 === 0) for (let b = sheetBacklog(sheet); b.bytes > 4 * 1024 * 1024 && !out.destroyed; b = sheetBacklog(sheet)) await drainedOrTimeout(b.target, 20);
    if (count % 1000 === 0) await yieldToEventLoop();
  }
  sheet.commit(); await workbook.commit();
}
const total = Number(process.argv[2] ?? 1_000_000);
const app = Fastify();
app.get('/x', async (_request, reply) => {
  function* rows() { for (let i = 1; i <= total; i++) yield { id: i, code: `C${i}`, name: `Agent name ${i}`, month: '202401', amount: `${i}.50`, rate: '3.3', status: 'ACTIVE', note: 'n' }; }
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  void writeOld(out, { columns: ['id', 'code', 'name', 'month', 'amount', 'rate', 'status', 'note'].map((key) => ({ header: key, key })), rows: rows() });
  reply.header('content-type', 'application/octet-stream'); return reply.send(out);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
let peakRss = 0; const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 200);
const started = Date.now(); const c0 = process.cpuUsage();
const { promisify } = await import('node:util'); const { execFile } = await import('node:child_process');
const { stdout } = await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{size_download}', `http://127.0.0.1:${address.port}/x`]);
clearInterval(sampler); const c = process.cpuUsage(c0);
console.log(`OLD exceljs ${total} rows: ${((Date.now() - started) / 1000).toFixed(1)} s, cpu ${((c.user + c.system) / 1e6).toFixed(1)} s, ${Math.round(Number(stdout) / 1048576)} MB, peak rss ${Math.round(peakRss / 1048576)} MB`);
await app.close();
