import { formatIsoDate, parseIsoDate } from '@csp/domain';

/** Tokens of a source date format; every other non-letter character must appear literally. */
const TOKENS = ['yyyy', 'MM', 'dd'] as const;
type Token = (typeof TOKENS)[number];

export interface CompiledDateFormat {
  pattern: RegExp;
  order: Token[];
}

const cache = new Map<string, CompiledDateFormat>();

/**
 * Compiles a format such as yyyyMMdd, yyyy-MM-dd, yyyy.MM.dd or dd/MM/yyyy. Each of yyyy, MM and dd
 * must appear exactly once; other letters are refused (throws RangeError with the reason).
 */
export function compileDateFormat(format: string): CompiledDateFormat {
  const hit = cache.get(format);
  if (hit) return hit;
  let source = '^';
  const order: Token[] = [];
  let i = 0;
  while (i < format.length) {
    const token = TOKENS.find((t) => format.startsWith(t, i));
    if (token) {
      if (order.includes(token)) throw new RangeError(`date format '${format}' repeats ${token}`);
      order.push(token);
      source += token === 'yyyy' ? '(\\d{4})' : '(\\d{2})';
      i += token.length;
      continue;
    }
    const ch = format[i]!;
    if (/[A-Za-z]/.test(ch))
      throw new RangeError(`date format '${format}' has an unsupported letter '${ch}'`);
    source += ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    i++;
  }
  if (order.length !== TOKENS.length) {
    throw new RangeError(`date format '${format}' must contain yyyy, MM and dd`);
  }
  const compiled = { pattern: new RegExp(`${source}$`), order };
  cache.set(format, compiled);
  return compiled;
}

/** Parses `value` (trimmed) with the format and returns 'YYYY-MM-DD', or throws RangeError. */
export function convertDate(value: string, format: string): string {
  const { pattern, order } = compileDateFormat(format);
  const match = pattern.exec(value.trim());
  if (!match) throw new RangeError(`'${value}' does not match the date format ${format}`);
  const parts: Record<Token, number> = { yyyy: 0, MM: 0, dd: 0 };
  order.forEach((token, index) => {
    parts[token] = Number(match[index + 1]);
  });
  const iso = formatIsoDate({ year: parts.yyyy, month: parts.MM, day: parts.dd });
  try {
    parseIsoDate(iso);
  } catch {
    throw new RangeError(`'${value}' is not a real calendar date`);
  }
  return iso;
}
