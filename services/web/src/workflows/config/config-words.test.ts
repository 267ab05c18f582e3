import { describe, expect, it } from 'vitest';
import { en, ko, type MessageKey } from '../../i18n/messages.js';
import { loggedValue, settingName, valueErrorText } from './config-words.js';

const tOf = (table: Record<MessageKey, string>) => (key: MessageKey, vars?: Record<string, string | number>) =>
  table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars?.[name] ?? ''));

describe('the system config page in words', () => {
  it('says each refusal of config.service.ts in Korean and in English', () => {
    const ko_ = tOf(ko);
    expect(valueErrorText(ko_, 'must be a whole number of at least 1')).toBe('1 이상의 정수를 입력하세요');
    expect(valueErrorText(ko_, 'must be dates YYYY-MM-DD separated by commas (2026-13-01 is not one)')).toBe(
      '2026-05-01 처럼 날짜를 쉼표로 구분해 입력하세요 (2026-13-01은(는) 날짜가 아닙니다)',
    );
    expect(valueErrorText(tOf(en), 'approval line NOPE does not exist')).toBe('There is no approval line NOPE');
    expect(valueErrorText(tOf(en), 'a rate in percent must be at most 100')).toBe('A rate in percent is at most 100');
  });

  it('shows a refusal it does not know as the server wrote it', () => {
    expect(valueErrorText(tOf(ko), 'something new')).toBe('something new');
  });

  it('names a setting by the catalog, else by the server description, else by its key', () => {
    expect(settingName('ko', { configKey: 'LOGIN_FAIL_LIMIT', description: 'Consecutive failed logins' })).toBe('계정을 잠그는 연속 로그인 실패 횟수');
    expect(settingName('ko', { configKey: 'NEW_KEY', description: 'A new key' })).toBe('A new key');
    expect(settingName('en', { configKey: 'NEW_KEY', description: null })).toBe('NEW_KEY');
  });

  it('reads the value of a change log snapshot, masked as logged', () => {
    expect(loggedValue({ configKey: 'BANK_API_KEY', configValue: '********' })).toBe('********');
    expect(loggedValue(null)).toBeNull();
    expect(loggedValue({ configValue: 5 })).toBeNull();
  });
});
