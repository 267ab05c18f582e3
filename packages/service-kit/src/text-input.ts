import type { FastifyRequest } from 'fastify';
import { AppError, type FieldError } from './errors.js';

/**
 * DECISIONS "Text input": a string with U+0000 or a lone UTF-16 surrogate never reaches a handler
 * (PostgreSQL refuses both in text and jsonb, which surfaced as E500). Checked for every route before
 * validation, so the field is named the same way whatever the schema does with the value.
 */

const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_ERRORS = 20;

export const NUL_MESSAGE = 'must not contain NUL characters';
export const SURROGATE_MESSAGE = 'must not contain unpaired surrogate characters';

/** Why `value` is not acceptable text, or undefined when it is. */
export function textProblem(value: string): string | undefined {
  if (!SUSPECT.test(value)) return undefined;
  if (value.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  return undefined;
}

/** A field name fit for the error body even when it came from a bad object key. */
function printable(key: string): string {
  return key.replace(/\u0000/g, '\\0').replace(LONE_SURROGATE, '\uFFFD');
}

/** A bad object key waiting on the stack, so errors come out in document order. */
class BadKey {
  constructor(readonly message: string) {}
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * Field errors for every bad string (values and object keys) inside `value`, named by their dotted
 * path (`items.0.name`); `root` names `value` itself when it is a bare string (e.g. `body`). Iterative, so a deeply nested JSON body cannot overflow the stack.
 */
export function textFieldErrors(value: unknown, root = ''): FieldError[] {
  const errors: FieldError[] = [];
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0 && errors.length < MAX_ERRORS) {
    const [current, path] = stack.pop()!;
    if (current instanceof BadKey) {
      errors.push({ field: path, message: current.message });
    } else if (typeof current === 'string') {
      const message = textProblem(current);
      if (message) errors.push({ field: path || root || 'request', message });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push([current[i], join(path, String(i))]);
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i]!;
        const keyMessage = textProblem(key);
        if (keyMessage) stack.push([new BadKey(keyMessage), join(path, printable(key))]);
        else stack.push([child, join(path, key)]);
      }
    }
  }
  return errors;
}

/** Throws E411 naming the fields when any string of `values` (name -> value) is not acceptable text. */
export function assertCleanText(values: unknown, root = ''): void {
  const errors = textFieldErrors(values, root);
  if (errors.length > 0) throw new AppError('INVALID_PARAMETER', undefined, { errors });
}

/** preValidation hook of every route: params (by name), querystring (by name), then the body. */
export async function rejectBadText(request: FastifyRequest): Promise<void> {
  const errors = [
    ...textFieldErrors(request.params),
    ...textFieldErrors(request.query),
    ...textFieldErrors(request.body, 'body'),
  ];
  if (errors.length > 0) throw new AppError('INVALID_PARAMETER', undefined, { errors: errors.slice(0, MAX_ERRORS) });
}
