import { toApiError, type Envelope } from './envelope.js';
import { authFetch } from './session.js';

/**
 * A multipart POST (file uploads): the generated client types JSON bodies only. Fields first, the
 * file last (the server reads the fields before it streams the file); the envelope opened as unwrap() does.
 */
export async function postMultipart<T>(url: string, fields: Record<string, string | undefined>, file: Blob, fileName?: string): Promise<T> {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== '') body.append(key, value);
  body.append('file', file, fileName ?? (file instanceof File ? file.name : 'upload'));
  const res = await authFetch(new Request(url, { method: 'POST', body }));
  const json = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!res.ok || !json?.success) throw toApiError(json, res.status);
  return json.data as T;
}
