import { describe, expect, it } from 'vitest';
import { en, ko, koMenuNames } from './messages.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
// A text that shows a raw identifier: camelCase, UPPER_SNAKE (two parts or more) or snake_case.
const RAW = /\b[a-z]+[A-Z][A-Za-z]*\b|\b[A-Z]+_[A-Z_]+\b|\b[a-z]+_[a-z_]+\b/;

describe('the message catalog', () => {
  it('has every key in both languages, none empty', () => {
    const enKeys = Object.keys(en).sort();
    const koKeys = Object.keys(ko).sort();
    expect(koKeys.filter((k) => !(k in en))).toEqual([]);
    expect(enKeys.filter((k) => !(k in ko))).toEqual([]);
    for (const key of enKeys) {
      expect(en[key as keyof typeof en].trim(), `en ${key}`).not.toBe('');
      expect(ko[key as keyof typeof ko].trim(), `ko ${key}`).not.toBe('');
    }
  });

  it('fills the same placeholders in both languages', () => {
    const differ = Object.keys(en).filter(
      (k) => placeholders(en[k as keyof typeof en]).join() !== placeholders(ko[k as keyof typeof ko]).join(),
    );
    expect(differ).toEqual([]);
  });

  it('says things in words: no text shows a raw code or field name', () => {
    const raw = [...Object.entries(en), ...Object.entries(ko)]
      .filter(([key]) => !key.startsWith('mapping.target.'))
      .filter(([, text]) => RAW.test(text.replace(/\{\w+\}/g, '')))
      .map(([key, text]) => `${key}: ${text}`);
    expect(raw).toEqual([]);
  });

  it('speaks Korean in the Korean catalog (Hangul in every text but names and formats)', () => {
    const NOT_WORDS = new Set(['shell.english', 'pay.csv', 'kpi.title', 'common.won', 'common.errorWithCode', 'batch.durationText', 'roles.cell', 'roles.matrixOf']);
    const english = Object.entries(ko)
      .filter(([key]) => !NOT_WORDS.has(key))
      .filter(([, text]) => !/[\uac00-\ud7a3]/.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(english).toEqual([]);
  });

  it('names every seeded menu in Korean', () => {
    expect(Object.values(koMenuNames).filter((name) => !/[\uac00-\ud7a3]/.test(name) && name !== 'KPI')).toEqual([]);
  });
});
