import { xlsxFromXml, type ZipPart } from '@csp/service-kit/testing';

export { sharedStringsBomb } from '@csp/service-kit/testing';

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * A minimal xlsx (workbook, relationships, one sheet, shared strings) whose cells are written as
 * given: `raw` cells go into the XML untouched (entities such as &#0; included).
 */
export function minimalXlsx(
  rows: ReadonlyArray<ReadonlyArray<string | { raw: string }>>,
  options: { sharedStrings?: Partial<Omit<ZipPart, 'name'>>; extraRowsXml?: string } = {},
): Buffer {
  const strings: string[] = [];
  const rowXml = rows
    .map((cells, r) => {
      const cellXml = cells
        .map((cell, c) => {
          const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
          if (typeof cell !== 'string') return `<c r="${ref}" t="inlineStr"><is><t>${cell.raw}</t></is></c>`;
          strings.push(cell);
          return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cellXml}</row>`;
    })
    .join('');
  const shared = Buffer.from(`<sst count="${strings.length}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`);
  return xlsxFromXml(`${rowXml}${options.extraRowsXml ?? ''}`, { data: shared, ...options.sharedStrings });
}
