import { describe, expect, it } from 'vitest';
import { grossPartRows } from '../src/statements/statement-sheet.js';
import { fill, monthText, statementWords } from '../src/statements/statement-words.js';

const parts = {
  recruit_total: '0.00',
  maintain_total: '480.10',
  override_total: '0.00',
  other_total: '19.90',
  correction_total: '-5.00',
  exception_plus: '0.00',
  exception_minus: '0.00',
  chargeback_total: '100.00',
};
const en = statementWords('en');
const ko = statementWords('ko');

describe('the parts of gross on a statement', () => {
  it('signs exception minus and chargeback negatively and leaves zero parts unsigned', () => {
    const rows = grossPartRows({ parts: { ...parts, exception_minus: '0.00' }, unsettled: '0.00' }, en);
    expect(rows.map((r) => [r.item, r.amount])).toEqual([
      ['Recruit', '0.00'],
      ['Maintain', '480.10'],
      ['Override', '0.00'],
      ['Other commission', '19.90'],
      ['Correction', '-5.00'],
      ['Exception plus', '0.00'],
      ['Exception minus', '0.00'],
      ['Chargeback', '-100.00'],
    ]);
  });

  it('adds a row for payments without a settlement row, so that the rows still add up to gross', () => {
    // gross 645.00 = 480.10 + 19.90 - 5.00 - 100.00 (= 395.00) + 250.00 paid without a settlement row
    const rows = grossPartRows({ parts, unsettled: '250.00' }, en);
    expect(rows.at(-1)).toEqual({ section: 'Part of gross', item: 'Not from a settlement row', reference: 'payments without a settlement row', amount: '250.00' });
    expect(rows).toHaveLength(9);
  });

  it('names the same parts in Korean on a Korean statement, with the same signed amounts', () => {
    const rows = grossPartRows({ parts, unsettled: '250.00' }, ko);
    expect(rows.map((r) => [r.section, r.item, r.reference, r.amount])).toEqual([
      ['총지급액 구성', '모집 수수료', '', '0.00'],
      ['총지급액 구성', '유지 수수료', '', '480.10'],
      ['총지급액 구성', '오버라이드', '', '0.00'],
      ['총지급액 구성', '기타 수수료', '수금, 갱신, 부활, 유지 보너스, 위촉 지원금, 시책', '19.90'],
      ['총지급액 구성', '정정', '해당 월에 반영된 승인 정정', '-5.00'],
      ['총지급액 구성', '예외 가산', '', '0.00'],
      ['총지급액 구성', '예외 차감', '차감', '0.00'],
      ['총지급액 구성', '환수', '차감', '-100.00'],
      ['총지급액 구성', '정산 외 지급', '정산 내역 없이 지급된 금액', '250.00'],
    ]);
  });
});

describe('the statement word table', () => {
  it('has every word in both languages, Korean in Hangul', () => {
    const keys = Object.keys(ko).filter((k) => k !== 'lang');
    expect(keys.length).toBeGreaterThan(50);
    for (const k of keys) {
      const pair = [ko[k as keyof typeof ko], en[k as keyof typeof en]];
      expect(pair.every((t) => t.length > 0), k).toBe(true);
      if (k !== 'period') expect(/[\uac00-\ud7a3]/.test(pair[0]!), `${k}: ${pair[0]}`).toBe(true);
    }
  });

  it('fills a template in order as format() does, %% being a percent sign', () => {
    expect(fill(ko.ledgerLine, 1, '10,000,000.00', '10', '100')).toBe('1차년도, 보험료 10,000,000.00 × 10% × 100%');
    expect(fill(en.ledgerLine, 1, '10,000,000.00', '10', '100')).toBe('year 1, premium 10,000,000.00 x 10% x 100%');
    expect(fill(ko.paymentCount, 3)).toBe('지급 3건');
    expect(monthText('202510')).toBe('2025-10');
  });
});
