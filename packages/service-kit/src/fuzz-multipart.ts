import fc from 'fast-check';
import { sharedStringsBomb, xlsxFromXml, type ZipPart } from './zip-builder.js';

/**
 * Multipart requests for the OpenAPI fuzzer (fuzz.ts). The document does not describe multipart
 * bodies, so a service lists its upload operations with the text fields they read; the fuzzer
 * sends each of them forms whose fields are mostly valid and whose file is hostile: random bytes,
 * NUL cells, lone surrogates, long lines, 20,000 and 300,000 columns, header-only files, wrong
 * encodings (UTF-16, latin-1), broken JSON, truncated / damaged zip and xlsx, cells beyond column
 * XFD, and xlsx zip bombs (shared strings declared at 3 GB, or declared small and inflating to
 * 1 GiB). The form itself is broken now and then (no file, two files, bad file names, a cut body).
 */

export interface MultipartOperation {
  /** Text fields of the form: name -> valid values to pick from (nasty ones are mixed in). */
  fields?: Record<string, readonly string[]>;
  /** Path parameters: name -> values. */
  params?: Record<string, ReadonlyArray<string | number>>;
  /** Query parameters: name -> values (sent now and then). */
  query?: Record<string, readonly string[]>;
  /** Form shapes to send (default: all of FORMS below). */
  forms?: readonly MultipartForm[];
}

export interface MultipartFuzzRequest {
  method: string;
  url: string;
  contentType: string;
  payload: Buffer;
  /** What the request is (`file=xlsx-bomb-1gib form=normal`), for reports. */
  description: string;
}

const MiB = 1024 * 1024;

/** A minimal xlsx: `rowsXml` of cells (XML written as given), `shared` overriding the sharedStrings part. */
const xlsx = (rowsXml: string, shared?: Partial<Omit<ZipPart, 'name'>>): Buffer =>
  xlsxFromXml(rowsXml, { data: Buffer.from('<sst><si><t>POLICY</t></si><si><t>P-1</t></si></sst>'), ...shared });

const inline = (ref: string, xml: string) => `<c r="${ref}" t="inlineStr"><is><t>${xml}</t></is></c>`;
const SHEET_OK = `<row r="1"><c r="A1" t="s"><v>0</v></c>${inline('B1', 'PREM')}</row><row r="2"><c r="A2" t="s"><v>1</v></c>${inline('B2', '100')}</row>`;

let bombCache: Buffer | undefined;
/** Shared strings that inflate to 1 GiB from about a megabyte, declared as 1 KiB in the directory, as a bomb would be. */
function xlsxBomb(): Buffer {
  bombCache ??= xlsx(SHEET_OK, { data: Buffer.from('<sst></sst>'), deflated: sharedStringsBomb(1024).deflated, declaredSize: 1024 });
  return bombCache;
}

const csvOf = (rows: string[][]) => rows.map((r) => r.join(',')).join('\r\n') + '\r\n';

/** Hostile files by name; `size` picks among variants. */
const FILES: Record<string, (n: number, bytes: Uint8Array) => { name: string; content: Buffer; type: string }> = {
  'random-bytes': (_n, bytes) => ({ name: 'random.csv', content: Buffer.from(bytes), type: 'text/csv' }),
  'csv-nul-cell': (n) => ({
    name: 'nul.csv',
    content: Buffer.from(csvOf([['POLICY', 'PREM', 'COMM'], ['P-1', '1\u00000', '5'], ...Array.from({ length: n % 4 }, (_, i) => [`P-${i + 2}`, `${i}`, '\u0000'])])),
    type: 'text/csv',
  }),
  'csv-surrogate-bytes': () => ({
    // CESU-8 bytes of U+D800 in a cell: not UTF-8
    name: 'cesu.csv',
    content: Buffer.concat([Buffer.from('POLICY,PREM\r\nP-1,'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('\r\n')]),
    type: 'text/csv',
  }),
  'csv-header-only': () => ({ name: 'header.csv', content: Buffer.from('POLICY,PREM,COMM\r\n'), type: 'text/csv' }),
  'csv-long-line': () => ({ name: 'long.csv', content: Buffer.from(`POLICY,PREM\r\nP-1,${'9'.repeat(MiB + 1)}\r\n`), type: 'text/csv' }),
  'csv-20000-columns': () => ({ name: 'wide.csv', content: Buffer.from(`${Array.from({ length: 20_000 }, () => 'c').join(',')}\r\nP-1\r\n`), type: 'text/csv' }),
  'csv-300000-columns': () => ({
    name: 'wider.csv',
    content: Buffer.from(`${Array.from({ length: 300_000 }, (_, i) => `C${i}`).join(',')}\r\nP-1\r\n`),
    type: 'text/csv',
  }),
  'csv-utf16le': () => ({
    name: 'utf16.csv',
    content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csvOf([['POLICY', 'PREM'], ['P-1', '100']]), 'utf16le')]),
    type: 'text/csv',
  }),
  'csv-latin1': () => ({ name: 'latin1.csv', content: Buffer.from(csvOf([['POLICY', 'Prämie'], ['P-1', 'Bétrag'], ['P-2', '1']]), 'latin1'), type: 'text/csv' }),
  'csv-unclosed-quote': () => ({ name: 'quote.csv', content: Buffer.from('POLICY,PREM\r\nP-1,"1\r\n'), type: 'text/csv' }),
  'json-nul': () => ({ name: 'nul.json', content: Buffer.from('[{"policy":"P\\u00001","amount":1.10},{"policy":"\\ud800"}]'), type: 'application/json' }),
  'json-broken': (n) => ({ name: 'broken.json', content: Buffer.from(['[{"policy":', '{"a":1}', '[1,2', '[]', '[{}]'][n % 5]!), type: 'application/json' }),
  'xlsx-valid': () => ({ name: 'ok.xlsx', content: xlsx(SHEET_OK), type: 'application/octet-stream' }),
  'xlsx-truncated': (n) => {
    const whole = xlsx(SHEET_OK);
    return { name: 'cut.xlsx', content: whole.subarray(0, 4 + (n * 37) % (whole.length - 4)), type: 'application/octet-stream' };
  },
  'xlsx-damaged-entry': () => {
    const whole = Buffer.from(xlsx(SHEET_OK));
    const at = whole.indexOf('xl/worksheets/sheet1.xml') + 24;
    whole.fill(0xff, at, at + 16);
    return { name: 'damaged.xlsx', content: whole, type: 'application/octet-stream' };
  },
  'xlsx-nul-cell': () => ({
    name: 'nul.xlsx',
    content: xlsx(`${SHEET_OK}<row r="3">${inline('A3', 'P&#0;3')}${inline('B3', '_x0000_')}</row><row r="4">${inline('A4', '&#xD800;')}</row>`),
    type: 'application/octet-stream',
  }),
  'xlsx-beyond-xfd': () => ({ name: 'wide.xlsx', content: xlsx(`${SHEET_OK}<row r="3">${inline('ZZZZ3', 'x')}</row>`), type: 'application/octet-stream' }),
  'xlsx-row-2000000': () => ({ name: 'rows.xlsx', content: xlsx(`${SHEET_OK}<row r="2000000">${inline('A2000000', 'x')}</row>`), type: 'application/octet-stream' }),
  'xlsx-shared-strings-3gb-declared': () => ({
    name: 'declared.xlsx',
    content: xlsx(SHEET_OK, { declaredSize: 3_000_000_000 }),
    type: 'application/octet-stream',
  }),
  'xlsx-bomb-1gib': () => ({ name: 'bomb.xlsx', content: xlsxBomb(), type: 'application/octet-stream' }),
  'zip-garbage': (_n, bytes) => ({ name: 'garbage.xlsx', content: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(bytes)]), type: 'application/zip' }),
  'ole-xls': (_n, bytes) => ({ name: 'legacy.xls', content: Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.from(bytes)]), type: 'application/vnd.ms-excel' }),
  empty: () => ({ name: 'empty.csv', content: Buffer.alloc(0), type: 'text/csv' }),
};
export const MULTIPART_FILE_KINDS = Object.keys(FILES);

export type MultipartForm = (typeof FORMS)[number];
const FORMS = ['normal', 'normal', 'normal', 'normal', 'nul-file-name', 'long-file-name', 'path-file-name', 'no-file', 'two-files', 'cut-body', 'no-boundary', 'fields-after-file'] as const;
const NASTY_FIELD_VALUES = ['\u0000', 'a\u0000b', '\uD800', '', ' ', 'x'.repeat(10_000), '-1', '99999999999999999999', 'NaN', 'true', "' OR '1'='1", '__proto__', '202413', 'UTF-16', 'NO-SUCH-ENCODING'];

/** One generated multipart request of `method path` per `spec`. */
export function multipartArbitrary(method: string, path: string, spec: MultipartOperation): fc.Arbitrary<MultipartFuzzRequest> {
  const fieldArbs = Object.entries(spec.fields ?? {}).map(([name, values]) =>
    fc.tuple(
      fc.constant(name),
      fc.oneof(
        { arbitrary: fc.constantFrom(...(values.length ? values : [''])), weight: 8 },
        { arbitrary: fc.constantFrom(...NASTY_FIELD_VALUES), weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      ),
    ),
  );
  const paramArbs = Object.entries(spec.params ?? {}).map(([name, values]) =>
    fc.tuple(fc.constant(name), fc.oneof({ arbitrary: fc.constantFrom(...values.map(String)), weight: 6 }, { arbitrary: fc.constantFrom('%00', 'x%ED%A0%80', '..', 'NOPE'), weight: 1 })),
  );
  const queryArbs = Object.entries(spec.query ?? {}).map(([name, values]) =>
    fc.tuple(fc.constant(name), fc.option(fc.oneof(fc.constantFrom(...values), fc.constantFrom('%00', '-1', '1e999')), { nil: undefined, freq: 2 })),
  );
  return fc
    .record({
      fields: fc.tuple(...fieldArbs),
      params: fc.tuple(...paramArbs),
      query: fc.tuple(...queryArbs),
      file: fc.constantFrom(...MULTIPART_FILE_KINDS),
      n: fc.nat({ max: 1000 }),
      bytes: fc.uint8Array({ maxLength: 2048 }),
      form: fc.constantFrom(...(spec.forms?.length ? spec.forms : FORMS)),
      boundary: fc.stringMatching(/^[A-Za-z0-9]{8,30}$/),
    })
    .map(({ fields, params, query, file, n, bytes, form, boundary }) => {
      const url =
        path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          const value = params.find(([key]) => key === name)?.[1] ?? '1';
          return /%/.test(value) ? value : encodeURIComponent(value);
        }) +
        (() => {
          const parts = query.filter(([, v]) => v !== undefined).map(([k, v]) => `${encodeURIComponent(k)}=${v}`);
          return parts.length ? `?${parts.join('&')}` : '';
        })();
      const made = FILES[file]!(n, bytes);
      const text = (name: string, value: string) =>
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, 'utf8');
      const fileName =
        form === 'nul-file-name' ? "filename*=UTF-8''a%00b.csv" : form === 'long-file-name' ? `filename="${'n'.repeat(5000)}.csv"` : form === 'path-file-name' ? 'filename="../../etc/passwd"' : `filename="${made.name}"`;
      const filePart = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${fileName}\r\nContent-Type: ${made.type}\r\n\r\n`),
        made.content,
        Buffer.from('\r\n'),
      ]);
      const textParts = fields.filter(([, v]) => v !== undefined).map(([k, v]) => text(k, v!));
      const parts =
        form === 'no-file' ? textParts : form === 'two-files' ? [...textParts, filePart, filePart] : form === 'fields-after-file' ? [filePart, ...textParts] : [...textParts, filePart];
      let payload = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
      if (form === 'cut-body') payload = payload.subarray(0, Math.max(1, Math.floor(payload.length / 2)));
      const contentType = form === 'no-boundary' ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}`;
      return { method, url, contentType, payload, description: `file=${file} form=${form}` };
    });
}
