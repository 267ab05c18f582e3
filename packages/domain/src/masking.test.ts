import { describe, expect, it } from 'vitest';
import { maskAccountNo, maskEmail, maskName, maskPhone, maskResidentNo } from './masking.js';

describe('masking', () => {
  const all = [maskName, maskPhone, maskResidentNo, maskAccountNo, maskEmail];

  it.each([null, undefined, ''])('passes %j through', (value) => {
    for (const mask of all) expect(mask(value)).toBe(value);
  });

  it('keeps a one-character name and masks Latin names alike', () => {
    expect(maskName('김')).toBe('김');
    expect(maskName('Kim')).toBe('K*m');
    expect(maskName('Alexander')).toBe('A*******r');
  });

  it('formats phone numbers from their digits only', () => {
    expect(maskPhone('01012345678')).toBe('010-****-5678');
    expect(maskPhone('(031) 123-4567')).toBe('031-***-4567');
    expect(maskPhone('+82-10-1234-5678')).toBe('821-*****-5678');
    expect(maskPhone('123456789')).toBe('123456789');
    expect(maskPhone('n/a')).toBe('n/a');
  });

  it('masks resident numbers with or without a dash', () => {
    expect(maskResidentNo('9001011234567')).toBe('900101-*******');
    expect(maskResidentNo('900101')).toBe('900101');
  });

  it('masks short account numbers whole after the first three characters', () => {
    expect(maskAccountNo('12')).toBe('12');
    expect(maskAccountNo('1234')).toBe('123*');
    expect(maskAccountNo('-123')).toBe('-***');
  });

  it('masks e-mails without a local part or without a domain', () => {
    expect(maskEmail('@example.com')).toBe('***@example.com');
    expect(maskEmail('hong')).toBe('h***');
    expect(maskEmail('a@b@example.com')).toBe('a***@example.com');
  });
});
