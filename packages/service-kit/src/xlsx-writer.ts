/**
 * The SpreadsheetML parts of a one-sheet xlsx, written as text (the zip container is zip-writer.ts's).
 * Parts and elements used, ECMA-376 Part 1 (https://ecma-international.org/publications-and-standards/standards/ecma-376/):
 * §12.3.23 workbook, §12.3.24 worksheet, §12.3.20 styles; §18.2.27 workbook/sheets, §18.3.1.99 worksheet,
 * §18.3.1.13 cols, §18.3.1.87 sheetView/pane, §18.3.1.73 row, §18.3.1.4 c (cell), §18.18.11 ST_CellType
 * (`inlineStr` with §18.3.1.53 is/t, `b`, `n`), §18.8.39 styleSheet, §18.8.30 built-in numFmtId 4 (#,##0.00).
 * Package parts ([Content_Types].xml, _rels): ECMA-376 Part 2 (OPC) §10.1.2.
 */

export interface XlsxColumn<R> {
  header: string;
  width: number;
  /** Decimal strings become number cells (see `isExcelDecimal`); 'money' shows them as #,##0.00. */
  numeric: false | 'number' | 'money';
  get(row: R): unknown;
}

const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/** cellXfs indexes of STYLES_XML. */
const STYLE = { header: 1, dateTime: 2, money: 3 } as const;

const STYLES_XML =
  `${XML_DECL}<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

export const SHEET_PART = 'xl/worksheets/sheet1.xml';

/** Every part except the worksheet, in the order they go into the zip. */
export function packageParts(sheetName: string): Array<[name: string, xml: string]> {
  return [
    [
      '[Content_Types].xml',
      `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
        `<Override PartName="/${SHEET_PART}" ContentType="${CT}.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML_DECL}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews>` +
        `<sheets><sheet name="${escapeXml(excelSheetName(sheetName), true)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    ['xl/styles.xml', STYLES_XML],
  ];
}

/** Excel's rules: 1-31 characters, none of []:*?/\ and no apostrophe at either end. */
export function excelSheetName(name: string): string {
  const cleaned = name.replace(/[[\]:*?/\\]/g, '_').slice(0, 31).replace(/^'+|'+$/g, '');
  return cleaned.trim() === '' ? 'Sheet1' : cleaned;
}

export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Excel's limit per cell; longer text makes Excel "repair" the file. */
export const MAX_CELL_CHARS = 32767;
// Characters XML 1.0 forbids (C0 controls but tab/LF/CR, U+FFFE/FFFF, unpaired surrogates).
const INVALID_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Fast pre-check: anything that needs escaping or removing (surrogates, including valid pairs, take the slow path).
const NEEDS_WORK = /[&<>"\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/** Escapes for element text (or an attribute value: quotes too); CR as a reference so parsers keep it. */
export function escapeXml(text: string, attribute = false): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(INVALID_XML, '').replace(attribute ? /[&<>"\r]/g : /[&<>\r]/g, (ch) => ENTITIES[ch]!);
}

const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * A decimal string Excel holds exactly: canonical (no leading zeros, no exponent) and at most 15 significant
 * digits, the precision of Excel's numbers. Such text goes into <v> unchanged, never through a JS number.
 */
export function isExcelDecimal(text: string): boolean {
  if (text.length > 40 || !DECIMAL.test(text)) return false;
  let digits = 0;
  let leading = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch < 48 || ch > 57) continue;
    if (leading && ch === 48) continue;
    leading = false;
    digits += 1;
  }
  return digits <= 15;
}

const MS_PER_DAY = 86_400_000;
const EXCEL_EPOCH_OFFSET_DAYS = 25569; // 1970-01-01 as an Excel (1900 system) serial

/** Serializes the worksheet: head, one `row()` call per record, tail. Row 1 is the (bold) header. */
export class SheetXml<R> {
  private rowNumber = 1;
  private readonly cellOpen: string[];

  constructor(private readonly columns: Array<XlsxColumn<R>>) {
    this.cellOpen = columns.map((_c, i) => `<c r="${columnLetter(i)}`);
  }

  /** XML declaration to the header row; the first pane is frozen below the header. */
  head(): string {
    const cols = this.columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
    const header = this.columns
      .map((c, i) => `${this.cellOpen[i]}1" s="${STYLE.header}" t="inlineStr"><is>${textElement(c.header)}</is></c>`)
      .join('');
    return (
      `${XML_DECL}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
      '<selection pane="bottomLeft"/></sheetView></sheetViews>' +
      (cols ? `<cols>${cols}</cols>` : '') +
      `<sheetData><row r="1">${header}</row>`
    );
  }

  row(record: R): string {
    const r = String(++this.rowNumber);
    let xml = `<row r="${r}">`;
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i]!;
      const value = column.get(record);
      if (value === null || value === undefined) continue;
      xml += this.cellOpen[i] + r + cellBody(value, column.numeric);
    }
    return `${xml}</row>`;
  }

  tail(): string {
    return '</sheetData></worksheet>';
  }
}

function textElement(value: string): string {
  const text = escapeXml(value.length > MAX_CELL_CHARS ? value.slice(0, MAX_CELL_CHARS) : value);
  // Leading/trailing whitespace survives only with xml:space="preserve".
  const edge = text.length > 0 && (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)));
  return edge ? `<t xml:space="preserve">${text}</t>` : `<t>${text}</t>`;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

function inlineString(text: string): string {
  return `" t="inlineStr"><is>${textElement(text)}</is></c>`;
}

/** Everything of a cell after `<c r="A1`. */
function cellBody(value: unknown, numeric: XlsxColumn<unknown>['numeric']): string {
  switch (typeof value) {
    case 'string':
      if (numeric !== false && isExcelDecimal(value)) {
        const style = numeric === 'money' ? ` s="${STYLE.money}"` : '';
        return `"${style}><v>${value}</v></c>`;
      }
      return inlineString(value);
    case 'number':
      return Number.isFinite(value) ? `"><v>${value}</v></c>` : inlineString(String(value));
    case 'boolean':
      return `" t="b"><v>${value ? 1 : 0}</v></c>`;
    case 'bigint':
      return inlineString(value.toString());
    case 'object':
      if (value instanceof Date) {
        const time = value.getTime();
        if (Number.isNaN(time)) return '"/>';
        return `" s="${STYLE.dateTime}"><v>${EXCEL_EPOCH_OFFSET_DAYS + time / MS_PER_DAY}</v></c>`;
      }
      return inlineString(JSON.stringify(value));
    case 'undefined':
    case 'function':
    case 'symbol':
      return inlineString(String(value));
  }
}
