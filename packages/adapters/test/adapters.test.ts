import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdapterConfigError,
  BankTimeoutError,
  BankTransferError,
  loadAdapterSettings,
  maskKeepLast4Digits,
  maskNameFirstChar,
  MessageSendError,
  MockBankAdapter,
  MockMessageAdapter,
  withBankCallLog,
  withMessageCallLog,
} from '../src/index.js';

let t: TestDatabase;
const warnings: unknown[] = [];
const logger = { warn: (obj: object) => void warnings.push(obj) };

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

const calls = () =>
  t.db
    .selectFrom('external_call_log')
    .select(['call_type', 'adapter_name', 'method_name', 'success', 'target_ref', 'request_summary', 'response_summary', 'error_message'])
    .orderBy('call_id')
    .execute();

const transfer = { reference: 'WITHDRAW#12', bankCode: '004', accountNo: '110-123-456789', holderName: '홍길동', amount: '150000.00' };

describe('masking of call summaries (spec 6)', () => {
  it('keeps the last 4 digits of account and phone numbers and the first character of names', () => {
    expect(maskKeepLast4Digits('110-123-456789')).toBe('***-***-**6789');
    expect(maskKeepLast4Digits('010-1234-5678')).toBe('***-****-5678');
    expect(maskKeepLast4Digits('01012345678')).toBe('*******5678');
    expect(maskKeepLast4Digits('123')).toBe('123');
    expect(maskNameFirstChar('홍길동')).toBe('홍**');
    expect(maskNameFirstChar('Business')).toBe('B*******');
    expect(maskNameFirstChar(null)).toBeNull();
  });
});

describe('adapter selection', () => {
  it('defaults to the mocks and refuses any other bank or message adapter with a clear message', () => {
    expect(loadAdapterSettings({})).toMatchObject({ bank: 'mock', message: 'mock', messageChannel: 'SMS' });
    expect(() => loadAdapterSettings({ APP_ADAPTER_BANK: 'kftc' })).toThrow(
      new AdapterConfigError(
        'app.adapter.bank (APP_ADAPTER_BANK) = "kftc" is not supported: only "mock" is available in this build; a real adapter has to be implemented before it can be selected',
      ),
    );
    expect(() => loadAdapterSettings({ APP_ADAPTER_MESSAGE: 'kakao-biz' })).toThrow(/app\.adapter\.message \(APP_ADAPTER_MESSAGE\) = "kakao-biz" is not supported/);
    expect(() => loadAdapterSettings({ APP_MOCK_BANK_ACCOUNTS: '1234:explode' })).toThrow(AdapterConfigError);
    expect(loadAdapterSettings({ APP_MOCK_BANK_ACCOUNTS: '110-123-456789:fail, 999:timeout' }).mockBankAccounts).toEqual(
      new Map([
        ['110123456789', 'fail'],
        ['999', 'timeout'],
      ]),
    );
  });
});

describe('the mock bank with its call log', () => {
  it('succeeds, declines and times out per account, logs each call masked, and passes the adapter error through unchanged', async () => {
    await t.db.deleteFrom('external_call_log').execute();
    const mock = new MockBankAdapter(new Map([['110123456789', 'fail']]), 5);
    const bank = withBankCallLog(mock, { db: t.db, logger });

    const declined = await bank.transfer(transfer).catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(BankTransferError);
    expect(declined).toMatchObject({ code: 'DECLINED', message: 'mock bank declined the transfer to account ***-***-**6789' });

    mock.setBehaviour('110123456789', 'timeout');
    await expect(bank.transfer(transfer)).rejects.toThrow(new BankTimeoutError('mock bank did not answer within 5 ms'));

    mock.setBehaviour('110123456789', 'succeed');
    const ok = await bank.transfer(transfer);
    expect(ok).toMatchObject({ txId: 'MOCK-WITHDRAW-12', status: 'COMPLETED' });
    // idempotent by reference
    expect(await bank.transfer(transfer)).toEqual(ok);

    const request = '{"reference":"WITHDRAW#12","bankCode":"004","accountNo":"***-***-**6789","holderName":"홍**","amount":"150000.00"}';
    const rows = await calls();
    expect(rows.map((r) => [r.call_type, r.adapter_name, r.method_name, r.success, r.target_ref, r.request_summary, r.error_message])).toEqual([
      ['BANK', 'mock-bank', 'transfer', false, 'WITHDRAW#12', request, 'BankTransferError: mock bank declined the transfer to account ***-***-**6789'],
      ['BANK', 'mock-bank', 'transfer', false, 'WITHDRAW#12', request, 'BankTimeoutError: mock bank did not answer within 5 ms'],
      ['BANK', 'mock-bank', 'transfer', true, 'WITHDRAW#12', request, null],
      ['BANK', 'mock-bank', 'transfer', true, 'WITHDRAW#12', request, null],
    ]);
    expect(JSON.parse(rows[2]!.response_summary!)).toMatchObject({ txId: 'MOCK-WITHDRAW-12', status: 'COMPLETED' });
    expect(rows.map((r) => r.request_summary).join()).not.toContain('456789');
  });

  it('a call log that cannot be written never fails the call', async () => {
    const broken = { insertInto: () => { throw new Error('database is down'); } } as unknown as TestDatabase['db'];
    warnings.length = 0;
    const bank = withBankCallLog(new MockBankAdapter(), { db: broken, logger });
    expect(await bank.transfer({ ...transfer, reference: 'WITHDRAW#13' })).toMatchObject({ txId: 'MOCK-WITHDRAW-13' });
    const message = withMessageCallLog(new MockMessageAdapter('fail'), { db: broken, logger });
    await expect(message.send({ channel: 'SMS', phone: '010-1234-5678', recipientName: 'Kim', text: 'hi', reference: 'APPROVAL#1' })).rejects.toThrow(
      new MessageSendError('mock message service is unavailable'),
    );
    expect(warnings).toHaveLength(2);
  });
});

describe('the mock message service with its call log', () => {
  it('logs the phone and recipient masked', async () => {
    await t.db.deleteFrom('external_call_log').execute();
    const mock = new MockMessageAdapter();
    const message = withMessageCallLog(mock, { db: t.db, logger });
    expect(await message.send({ channel: 'KAKAO', phone: '010-9876-5432', recipientName: 'Lee Approver', text: 'Approval needed', reference: 'APPROVAL#7' })).toEqual({
      messageId: 'MOCK-MSG-1',
    });
    expect(mock.sent).toHaveLength(1);
    expect(await calls()).toEqual([
      {
        call_type: 'MESSAGE',
        adapter_name: 'mock-message',
        method_name: 'send',
        success: true,
        target_ref: 'APPROVAL#7',
        request_summary: '{"channel":"KAKAO","phone":"***-****-5432","recipientName":"L***********","text":"Approval needed"}',
        response_summary: '{"messageId":"MOCK-MSG-1"}',
        error_message: null,
      },
    ]);
  });
});
