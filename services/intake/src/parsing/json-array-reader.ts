import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import iconv from 'iconv-lite';
import { normaliseEncoding } from './csv-reader.js';
import { MAX_LINE_BYTES } from './limits.js';

/** One element of a JSON array file: its 1-based position and its text as delivered. */
export interface JsonElement {
  index: number;
  text: string;
}

export class JsonArrayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonArrayError';
  }
}

const SPACE = /\s/;

/**
 * Streams the elements of a file holding one JSON array (`[{...}, {...}]`), each as its own text:
 * the reader only tracks strings and nesting to find where an element ends, so memory holds one
 * element at a time and the digits of numbers stay exactly as delivered (nothing is parsed here).
 * A file that is not an array, or ends inside one, throws JsonArrayError.
 */
export async function* readJsonArray(
  path: string,
  options: { encoding: string },
): AsyncGenerator<JsonElement> {
  const source = createReadStream(path, { highWaterMark: 256 * 1024 });
  const decoder = iconv.decodeStream(normaliseEncoding(options.encoding), { stripBOM: true });
  // pipeline destroys every stream on a failure; the error surfaces in the loop below
  pipeline(source, decoder, () => undefined);
  let state = 'start' as 'start' | 'between' | 'element' | 'end';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let partsLength = 0;
  let elementStart = 0;
  const tooLong = () => new JsonArrayError(`element ${index + 1} of the JSON array is longer than 1 MiB`);
  let index = 0;
  try {
    for await (const piece of decoder as AsyncIterable<string>) {
      const text = piece;
      elementStart = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (state === 'element') {
          if (inString) {
            if (escaped) escaped = false;
            else if (c === '\\') escaped = true;
            else if (c === '"') inString = false;
            continue;
          }
          if (c === '"') inString = true;
          else if (c === '{' || c === '[') depth++;
          else if (c === '}' && depth === 0)
            throw new JsonArrayError(`unbalanced '}' in element ${index + 1}`);
          else if (c === '}' || c === ']' || c === ',') {
            if (depth > 0 && c !== ',') {
              depth--;
              continue;
            }
            if (depth > 0) continue;
            // the element ends before this ',' or the array's ']'
            parts.push(text.slice(elementStart, i));
            const element = parts.join('').trim();
            parts = [];
            partsLength = 0;
            if (element.length > MAX_LINE_BYTES) throw tooLong();
            if (element === '') throw new JsonArrayError(`element ${index + 1} of the JSON array is empty`);
            yield { index: ++index, text: element };
            state = c === ',' ? 'between' : 'end';
          }
          continue;
        }
        if (SPACE.test(c)) continue;
        if (state === 'start') {
          if (c !== '[') throw new JsonArrayError('the file is not a JSON array (it must start with [)');
          state = 'between';
        } else if (state === 'between') {
          if (c === ']' && index === 0) state = 'end';
          else {
            state = 'element';
            elementStart = i;
            i--; // read this character as part of the element
          }
        } else {
          throw new JsonArrayError(`unexpected '${c}' after the end of the JSON array`);
        }
      }
      if (state === 'element') {
        const piece = text.slice(elementStart);
        parts.push(piece);
        partsLength += piece.length;
        if (partsLength > MAX_LINE_BYTES) throw tooLong();
      }
    }
    if (state !== 'end') throw new JsonArrayError('the JSON array is not closed (the file ends inside it)');
  } finally {
    source.destroy();
  }
}
