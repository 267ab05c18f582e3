import { describe, expect, it } from 'vitest';
import { formatTransferFile, TransferFormatError, type TransferLine } from './transfer-file-format.js';

const info = { createdOn: '2025-04-01', transferDate: '2025-04-10', settleMonth: '202503', count: 2, total: '1000000.05' };
const lines: TransferLine[] = [
  { paymentId: 1, agentId: 1001, accountHolder: '홍길동', bankCode: '004', accountNo: '110-123-456789', amount: '999999.99' },
  { paymentId: 2, agentId: 1002, accountHolder: 'Lee', bankCode: '088', accountNo: '1101234567', amount: '0.06' },
];

describe('transfer file layouts', () => {
  it('writes FIXED records of exactly 100 UTF-8 bytes with implied cents', () => {
    const records = formatTransferFile('FIXED', info, lines).toString('utf8').split('\r\n');
    expect(records.pop()).toBe('');
    expect(records.map((r) => Buffer.byteLength(r))).toEqual([100, 100, 100, 100]);
    expect(records[0]!.slice(0, 49)).toBe('H2025040120250410202503' + '00000002' + '000000000100000005');
    expect(records[1]).toBe(
      'D000001000000000001000000001001004       110-123-456789      000000099999999홍길동' + ' '.repeat(11) + '    ',
    );
    expect(records[2]!.slice(0, 76)).toBe('D000002000000000002000000001002088       1101234567          000000000000006');
    expect(records[3]!.trimEnd()).toBe('T00000002000000000100000005');
  });

  it('cuts a long holder name at a character boundary but refuses an account number that does not fit', () => {
    const long = [{ ...lines[0]!, accountHolder: '가'.repeat(10) }];
    const record = formatTransferFile('FIXED', { ...info, count: 1, total: '999999.99' }, long).toString('utf8').split('\r\n')[1]!;
    expect(record.slice(76, 83)).toBe('가'.repeat(6) + ' ');
    expect(Buffer.byteLength(record)).toBe(100);
    expect(() => formatTransferFile('FIXED', info, [{ ...lines[0]!, accountNo: '1'.repeat(21) }])).toThrow(TransferFormatError);
    expect(() => formatTransferFile('FIXED', info, [{ ...lines[0]!, amount: '-1.00' }])).toThrow(TransferFormatError);
  });

  it('writes CSV with header, quoted fields where needed and a trailer', () => {
    const text = formatTransferFile('CSV', info, [{ ...lines[1]!, accountHolder: 'Lee, "Jr"' }]).toString('utf8');
    expect(text).toBe('H,20250401,20250410,202503,2,1000000.05\r\nD,1,2,1002,088,1101234567,0.06,"Lee, ""Jr"""\r\nT,2,1000000.05\r\n');
  });
});
