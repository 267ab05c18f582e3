// Prefixed, coloured, readable output for every process the launcher runs.
import { createInterface } from 'node:readline';

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const COLORS = [36, 35, 33, 32, 34, 96, 95, 93, 92, 94];
const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLORS = { 40: 33, 50: 31, 60: 31 };
const rawLogs = process.env.LOG_FORMAT === 'json';

let tagWidth = 12;
let nextColor = 0;

const paint = (code, text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);

/** Makes every tag as wide as the widest one so the log columns line up. */
export function reserveTagWidth(tags) {
  tagWidth = Math.max(tagWidth, ...tags.map((t) => t.length + 2));
}

export function makeTag(name) {
  const color = COLORS[nextColor++ % COLORS.length];
  return paint(color, `[${name}]`.padEnd(tagWidth));
}

const launcherTag = () => paint('1', '[launcher]'.padEnd(tagWidth));

export function say(message) {
  process.stdout.write(`${launcherTag()} ${message}\n`);
}

export function warn(message) {
  process.stderr.write(`${launcherTag()} ${paint(33, message)}\n`);
}

const HIDDEN_KEYS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'name', 'v']);

/** A pino JSON line as `HH:MM:SS LEVEL message key=value ...`; anything else unchanged. */
export function formatLine(line) {
  if (rawLogs || !line.startsWith('{')) return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || typeof entry.level !== 'number') return line;
  const time = new Date(entry.time ?? Date.now()).toTimeString().slice(0, 8);
  const level = paint(LEVEL_COLORS[entry.level] ?? 2, LEVELS[entry.level] ?? String(entry.level));
  const parts = [];
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (HIDDEN_KEYS.has(key)) continue;
    if (key === 'err' && value && typeof value === 'object') {
      parts.push(`err=${JSON.stringify(value.message ?? value.type ?? '')}`);
      if (entry.level >= 50 && value.stack) stack = `\n${value.stack}`;
    } else if (key === 'req' && value && typeof value === 'object') {
      parts.push(`${value.method ?? ''} ${value.url ?? ''}`.trim());
    } else if (key === 'res' && value && typeof value === 'object') {
      parts.push(`status=${value.statusCode}`);
    } else {
      parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    }
  }
  return `${paint(2, time)} ${level} ${entry.msg ?? ''}${parts.length ? ` ${paint(2, parts.join(' '))}` : ''}${stack}`;
}

/** Writes each line of a child stream with the child's tag in front. */
export function pipeTagged(stream, tag, target = process.stdout) {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    for (const part of formatLine(line).split('\n')) target.write(`${tag} ${part}\n`);
  });
}
