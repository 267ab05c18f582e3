import createClient from 'openapi-fetch';
import type { paths } from './schema';
import { ApiError } from './envelope.js';
import { authFetch } from './session.js';

/** The typed client generated from the gateway's OpenAPI document (openapi/gateway.json). */
export const api = createClient<paths>({ baseUrl: '', fetch: authFetch });

/**
 * Calls whose path comes from resource metadata at run time (generic pages), same fetch and envelope.
 * Paths are not known to the type system there.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const dynamicApi = createClient<any>({ baseUrl: '', fetch: authFetch });

/** Query params as the server reads them: empty values dropped. */
export function cleanQuery(query: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return out;
}

/** Downloads need the bearer token, which a plain link cannot send: fetch, then save the blob. */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const res = await authFetch(new Request(url));
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
    throw new ApiError(body?.code ?? 'E500', body?.message ?? `HTTP ${res.status}`, res.status);
  }
  const blob = await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)/i.exec(disposition) ?? /filename="?([^";]+)"?/i.exec(disposition);
  const name = match?.[1] ? decodeURIComponent(match[1]) : fallbackName;
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * The queue dashboard (bull-board on the gateway) is opened with the session: `POST /ops/session`
 * with the bearer token sets its cookie, then the page opens in a new tab.
 */
export async function openQueueDashboard(): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  const res = await authFetch(new Request('/ops/session', { method: 'POST' }));
  if (!res.ok) {
    tab?.close();
    const body = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
    throw new ApiError(body?.code ?? 'E500', body?.message ?? `HTTP ${res.status}`, res.status);
  }
  if (tab) tab.location.href = '/ops/queues';
  else window.location.assign('/ops/queues');
}
