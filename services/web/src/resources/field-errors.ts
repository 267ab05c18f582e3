import type { FormInstance } from 'antd';
import { ApiError } from '../api/envelope.js';

/**
 * Puts the server's E411 field errors on the form's fields (`items.0.amount` -> ['items', 0, 'amount']).
 * Returns the errors that match no field of the form (shown above the form by the caller).
 */
export function placeFieldErrors(form: FormInstance, err: ApiError, fieldNames: readonly string[]): { field: string; message: string }[] {
  if (err.code !== 'E411' || err.fieldErrors.length === 0) return [];
  const known = new Set(fieldNames);
  const placed: { name: (string | number)[]; errors: string[] }[] = [];
  const rest: { field: string; message: string }[] = [];
  for (const e of err.fieldErrors) {
    const name = e.field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    if (known.has(String(name[0]))) {
      const existing = placed.find((p) => p.name.join('.') === name.join('.'));
      if (existing) existing.errors.push(e.message);
      else placed.push({ name, errors: [e.message] });
    } else rest.push(e);
  }
  form.setFields(placed);
  return rest;
}

/** For small fixed forms: true when every field error found its field. */
export function applyFieldErrors(form: FormInstance, err: ApiError): boolean {
  if (err.code !== 'E411' || err.fieldErrors.length === 0) return false;
  const names = Object.keys(form.getFieldsValue(true) as Record<string, unknown>);
  return placeFieldErrors(form, err, names).length === 0;
}
