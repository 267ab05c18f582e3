import type { ResourceMeta } from './meta.js';

/** `ParseError` -> `Parse errors`, `login log` -> `Login logs`, `RawCommissionData` -> `Raw commission data`. */
export function humanizeName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean);
  if (words.length === 0) return name;
  const last = words.length - 1;
  words[last] = plural(words[last]!);
  const text = words
    .map((w, i) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : i === 0 || /^[A-Z0-9]+$/.test(w) ? w : w.toLowerCase()))
    .join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const UNCOUNTED = /(data|info|information|history|kpi|summary|ly)$/i;
const ACRONYMS = new Set(['api', 'kpi', 'vat', 'id']);

function plural(word: string): string {
  if (UNCOUNTED.test(word) || /s$/i.test(word)) return word;
  if (/(sh|ch|x|z)$/i.test(word)) return `${word}es`;
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** The API path a list is read from, without `/api/` and parameters: `/api/mapping/:c/fields` -> `mapping/fields`. */
function listSegments(resource: ResourceMeta): string[] {
  return resource.path
    .replace(/^\/api\//, '')
    .split('/')
    .filter((s) => s && !/^[:{]/.test(s));
}

/** Page path and API path agree exactly (`/api/settle` for `settle`). */
function exactMatch(resource: ResourceMeta, page: string[]): boolean {
  return listSegments(resource).join('/') === page.join('/');
}

/** The API path ends with the page's last word, or a longer form of it (`/api/kpi/organization` for `kpi/org`). */
function looseMatch(resource: ResourceMeta, page: string[]): boolean {
  const last = listSegments(resource).at(-1);
  const pageLast = page.at(-1) ?? '';
  return last !== undefined && (last === pageLast || (pageLast.length >= 3 && last.startsWith(pageLast)));
}

/**
 * Tab labels of a page with several resources: the menu's name (from the menu metadata, in the UI
 * language) for the one resource the page is named after, a readable form of the resource name for
 * the others. Never the raw resource name.
 */
export function resourceTitles(resources: ResourceMeta[], pagePath: string, menuName: string): Map<ResourceMeta, string> {
  const page = pagePath.replace(/^\/+|\/+$/g, '').split('/');
  const exact = resources.filter((r) => exactMatch(r, page));
  const loose = resources.filter((r) => looseMatch(r, page));
  const main = exact.length === 1 ? exact[0] : loose.length === 1 ? loose[0] : resources.length === 1 ? resources[0] : undefined;
  return new Map(resources.map((r) => [r, r === main ? menuName : humanizeName(r.name)]));
}
