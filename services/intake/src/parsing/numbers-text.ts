/**
 * Exact text helpers for numbers as spreadsheets store them (never through a JS number, so money
 * keeps every digit).
 */

const EXPONENT = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/;

/** '1.5E-3' -> '0.0015', '1.23E+5' -> '123000'; other text is returned unchanged. */
export function plainDecimal(text: string): string {
  if (text.indexOf('E') < 0 && text.indexOf('e') < 0) return text;
  const m = EXPONENT.exec(text);
  if (!m) return text;
  const sign = m[1] === '-' ? '-' : '';
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? '';
  const exp = Number(m[4]);
  let digits = intPart + fracPart;
  let point = intPart.length + exp;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits += '0'.repeat(point - digits.length);
  }
  let whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(point).replace(/0+$/, '');
  if (whole === '') whole = '0';
  const out = frac ? `${whole}.${frac}` : whole;
  return out === '0' ? '0' : sign + out;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * An Excel date serial ('45678', '45678.5') -> 'YYYY-MM-DD' (plus ' HH:mm:ss' when it has a time).
 * The 1900 system counts the non-existent 1900-02-29 (serial 60), as Excel does.
 */
export function excelSerialToText(serial: string, date1904 = false): string | undefined {
  if (!/^\d+(\.\d+)?$/.test(serial)) return undefined;
  const [dayText, fracText = ''] = serial.split('.');
  let days = Number(dayText);
  if (!date1904 && days < 61) days += 1; // before the phantom leap day
  const base = date1904 ? EPOCH_1904 : EPOCH_1900;
  const date = new Date(base + days * DAY_MS);
  const iso = date.toISOString().slice(0, 10);
  if (!fracText || /^0*$/.test(fracText)) return iso;
  const seconds = Math.round(Number(`0.${fracText}`) * 86_400);
  if (seconds === 0 || seconds >= 86_400) return iso;
  const hh = String(Math.floor(seconds / 3600)).padStart(2, '0');
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${iso} ${hh}:${mm}:${ss}`;
}
