/**
 * How values read on screen, the same in both languages (STYLE "Value kinds"). Money and rates stay
 * strings from end to end: they are regrouped as text, never parsed into a JS number.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A decimal string grouped `#,##0.00` (two places, padded or kept as sent when longer); other text as is. */
export function formatMoney(text: string | null | undefined): string {
  if (text == null || text === '') return '-';
  const m = DECIMAL.exec(text.trim());
  if (!m) return text;
  const fraction = (m[3] ?? '').padEnd(2, '0');
  return `${m[1]}${group(m[2]!)}.${fraction}`;
}

/** A percent value as stored (`3.3000`) shown `3.3%`: trailing zeros of the fraction dropped. */
export function formatRate(text: string | number | null | undefined): string {
  if (text == null || text === '') return '-';
  const m = DECIMAL.exec(String(text).trim());
  if (!m) return String(text);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]}${group(m[2]!)}${fraction ? `.${fraction}` : ''}%`;
}

/** `YYYYMM` on the wire shown `YYYY-MM`; anything else as sent. */
export function formatMonth(text: string | null | undefined): string {
  if (text == null || text === '') return '-';
  const m = /^(\d{4})-?(\d{2})$/.exec(text.trim());
  return m ? `${m[1]}-${m[2]}` : text;
}

/** `YYYY-MM` or `YYYYMM` typed or picked, sent as `YYYYMM`; undefined when it is not a month. */
export function toWireMonth(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  const m = /^(\d{4})-?(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? `${m[1]}${m[2]}` : undefined;
}

/** A date exactly as sent (`YYYY-MM-DD`); a timestamp's date part when the server sent a full time. */
export function formatDate(text: string | null | undefined): string {
  if (text == null || text === '') return '-';
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|T00:00:00(?:\.0+)?Z?$)/.exec(text.trim());
  return m ? m[1]! : text;
}

/**
 * Made on the first timestamp shown, not when the module loads: a formatter with a time zone loads the zone
 * data, ~40 ms of a cold load's main thread (web bench profile) on pages that show no time.
 */
let seoul: Intl.DateTimeFormat | undefined;
function seoulFormat(): Intl.DateTimeFormat {
  return (seoul ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Seoul',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }));
}

/** An instant (ISO with `Z` or an offset) shown in Asia/Seoul `YYYY-MM-DD HH:mm`; a time without a zone is UTC. */
export function formatTimestamp(text: string | null | undefined): string {
  if (text == null || text === '') return '-';
  const raw = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(raw)) return raw;
  const iso = raw.replace(' ', 'T');
  const instant = new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(instant.getTime())) return raw;
  const parts = Object.fromEntries(seoulFormat().formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** A count grouped for reading (`1,234`). */
export function formatCount(value: number | string | null | undefined): string {
  if (value == null || value === '') return '-';
  const m = DECIMAL.exec(String(value));
  return m ? `${m[1]}${group(m[2]!)}${m[3] ? `.${m[3]}` : ''}` : String(value);
}
