/** Bank transfer file layouts (CSV and FIXED); documented in the service README ("Transfer file"). */

export const BANK_FORMATS = ['CSV', 'FIXED'] as const;
export type BankFormat = (typeof BANK_FORMATS)[number];

export interface TransferLine {
  paymentId: number;
  agentId: number;
  accountHolder: string;
  bankCode: string;
  /** Plain account number (decrypted). */
  accountNo: string;
  /** Net amount to transfer, 2 places ("963700.00"). */
  amount: string;
}

export interface TransferFileInfo {
  /** YYYY-MM-DD */
  createdOn: string;
  /** YYYY-MM-DD, a business day */
  transferDate: string;
  settleMonth: string;
  count: number;
  /** Sum of the lines' amounts, 2 places. */
  total: string;
}

export class TransferFormatError extends Error {}

const EOL = '\r\n';
export const FIXED_RECORD_BYTES = 100;

const compactDate = (date: string) => date.replaceAll('-', '');

/** "963700.00" -> "000000096370000" (implied two decimals, zero padded to `width`). */
function impliedCents(amount: string, width: number, what: string): string {
  if (!/^\d+\.\d{2}$/.test(amount)) throw new TransferFormatError(`${what}: ${amount} is not a non-negative amount with 2 places`);
  const digits = amount.replace('.', '').replace(/^0+(?=\d)/, '');
  if (digits.length > width) throw new TransferFormatError(`${what}: ${amount} does not fit ${width} digits`);
  return digits.padStart(width, '0');
}

function zeroPad(value: number, width: number, what: string): string {
  const text = String(value);
  if (!/^\d+$/.test(text) || text.length > width) throw new TransferFormatError(`${what}: ${value} does not fit ${width} digits`);
  return text.padStart(width, '0');
}

/** Left-aligned text of exactly `width` UTF-8 bytes: cut at a character boundary, padded with spaces. */
function textField(value: string, width: number, what: string, cut = false): string {
  let out = '';
  let bytes = 0;
  for (const ch of value.replace(/[\r\n]/g, ' ')) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > width) {
      if (!cut) throw new TransferFormatError(`${what}: "${value}" is longer than ${width} bytes`);
      break;
    }
    out += ch;
    bytes += size;
  }
  return out + ' '.repeat(width - bytes);
}

function fixedRecord(fields: string[]): string {
  const record = fields.join('');
  const filler = FIXED_RECORD_BYTES - Buffer.byteLength(record);
  if (filler < 0) throw new TransferFormatError('record longer than the layout');
  return record + ' '.repeat(filler);
}

function fixedLines(info: TransferFileInfo, lines: readonly TransferLine[]): string[] {
  const header = fixedRecord([
    'H',
    compactDate(info.createdOn),
    compactDate(info.transferDate),
    info.settleMonth,
    zeroPad(info.count, 8, 'count'),
    impliedCents(info.total, 18, 'total'),
  ]);
  const details = lines.map((l, i) =>
    fixedRecord([
      'D',
      zeroPad(i + 1, 6, 'sequence'),
      zeroPad(l.paymentId, 12, 'payment id'),
      zeroPad(l.agentId, 12, 'agent id'),
      textField(l.bankCode, 10, `bank code of payment ${l.paymentId}`),
      textField(l.accountNo, 20, `account number of payment ${l.paymentId}`),
      impliedCents(l.amount, 15, `amount of payment ${l.paymentId}`),
      textField(l.accountHolder, 20, 'account holder', true),
    ]),
  );
  const trailer = fixedRecord(['T', zeroPad(info.count, 8, 'count'), impliedCents(info.total, 18, 'total')]);
  return [header, ...details, trailer];
}

/** RFC 4180 quoting where needed. */
function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLines(info: TransferFileInfo, lines: readonly TransferLine[]): string[] {
  const row = (fields: Array<string | number>) => fields.map(csvField).join(',');
  return [
    row(['H', compactDate(info.createdOn), compactDate(info.transferDate), info.settleMonth, info.count, info.total]),
    ...lines.map((l, i) => row(['D', i + 1, l.paymentId, l.agentId, l.bankCode, l.accountNo, l.amount, l.accountHolder])),
    row(['T', info.count, info.total]),
  ];
}

/** The whole file: header, one detail record per payment in the given order, trailer; CRLF line ends, UTF-8. */
export function formatTransferFile(format: BankFormat, info: TransferFileInfo, lines: readonly TransferLine[]): Buffer {
  const records = format === 'FIXED' ? fixedLines(info, lines) : csvLines(info, lines);
  return Buffer.from(records.join(EOL) + EOL, 'utf8');
}
