import type { UploadTransformRule } from '@csp/db';
import { describe, expect, it } from 'vitest';
import { RuleSyntaxError } from '../transform/rules.js';
import { compileColumnRule, TEMPLATE_RULES } from './template-rules.js';
import { coerce } from './value-types.js';

const ctx = {
  cells: ['P-1', ' 2025 ', 'x', 'LIFE'],
  codeMap: (type: string, value: string) =>
    type === 'INSURANCE_TYPE' && value === '01' ? 'LIFE' : undefined,
};

function run(
  rule: UploadTransformRule | null,
  args: string | null,
  cell: string,
  defaultValue: string | null = null,
) {
  return compileColumnRule(rule, args).apply(cell, defaultValue, ctx);
}

describe('upload template rules', () => {
  it('knows the 13 rules of spec 2.5', () => {
    expect(TEMPLATE_RULES).toEqual([
      'TRIM',
      'UPPER',
      'LOWER',
      'DATE',
      'DIVIDE',
      'MULTIPLY',
      'LOOKUP',
      'CODE_MAP',
      'FIXED',
      'REPLACE',
      'SUBSTRING',
      'CONCAT',
      'DEFAULT',
    ]);
  });

  it('applies each rule to a cell', () => {
    expect(run('TRIM', null, '  a b  ')).toEqual({ ok: true, value: 'a b' });
    expect(run('UPPER', null, 'abc')).toEqual({ ok: true, value: 'ABC' });
    expect(run('LOWER', null, 'ABC')).toEqual({ ok: true, value: 'abc' });
    expect(run('DATE', 'yyyyMMdd', '20250131')).toEqual({ ok: true, value: '2025-01-31' });
    expect(run('DATE', 'dd/MM/yyyy', '2025-01-31')).toEqual({ ok: true, value: '2025-01-31' });
    expect(run('DIVIDE', '100', '123456')).toEqual({ ok: true, value: '1234.56' });
    expect(run('MULTIPLY', '1000', '1.5')).toEqual({ ok: true, value: '1500' });
    expect(run('LOOKUP', 'agent_by_license', ' L-9 ')).toEqual({
      ok: true,
      lookup: 'AGENT_BY_LICENSE',
      key: 'L-9',
    });
    expect(run('CODE_MAP', 'INSURANCE_TYPE', '01')).toEqual({ ok: true, value: 'LIFE' });
    expect(run('FIXED', 'MONTHLY', '')).toEqual({ ok: true, value: 'MONTHLY' });
    expect(run('REPLACE', '-=>', '010-1234-5678')).toEqual({ ok: true, value: '01012345678' });
    expect(run('SUBSTRING', '0,4', '20250131')).toEqual({ ok: true, value: '2025' });
    expect(run('SUBSTRING', '4', '20250131')).toEqual({ ok: true, value: '0131' });
    expect(run('CONCAT', '{A}-{D}', '')).toEqual({ ok: true, value: 'P-1-LIFE' });
    expect(run('DEFAULT', 'N', '')).toEqual({ ok: true, value: 'N' });
    expect(run('DEFAULT', 'N', 'Y')).toEqual({ ok: true, value: 'Y' });
  });

  it('reports values a rule cannot handle', () => {
    expect(run('DATE', 'yyyyMMdd', '20250231')).toEqual({
      ok: false,
      message: "'20250231' is not a real calendar date",
    });
    expect(run('DIVIDE', '100', 'abc')).toEqual({ ok: false, message: "'abc' is not a number" });
    expect(run('CODE_MAP', 'INSURANCE_TYPE', '99')).toEqual({
      ok: false,
      message: "no code mapping of type INSURANCE_TYPE for '99'",
    });
  });

  it('leaves a blank cell to the column default, except FIXED, CONCAT and DEFAULT', () => {
    expect(run('UPPER', null, '  ', 'X')).toEqual({ ok: true, value: 'X' });
    expect(run(null, null, '', null)).toEqual({ ok: true, value: null });
    expect(run(null, null, 'v', 'X')).toEqual({ ok: true, value: 'v' });
  });

  it('refuses rule arguments that do not parse', () => {
    const bad: Array<[UploadTransformRule | null, string | null, string]> = [
      ['TRIM', 'x', 'rule TRIM takes no transformArgs'],
      ['DIVIDE', null, 'rule DIVIDE needs a number in transformArgs'],
      ['DIVIDE', '0', 'rule DIVIDE cannot divide by zero'],
      ['MULTIPLY', 'ten', "rule MULTIPLY needs a number in transformArgs, got 'ten'"],
      ['DATE', 'yyyy-MM', "date format 'yyyy-MM' must contain yyyy, MM and dd"],
      [
        'LOOKUP',
        'USERS',
        "unknown lookup 'USERS' (one of AGENT_BY_LICENSE, ORG_BY_NAME, GRADE_BY_CODE, GRADE_BY_NAME, PRODUCT_BY_CODE, CONTRACT_BY_POLICY, COMPANY_BY_NAME)",
      ],
      ['CODE_MAP', ' ', 'rule CODE_MAP needs a code type in transformArgs'],
      ['REPLACE', 'abc', "rule REPLACE needs transformArgs 'search=>replacement'"],
      ['SUBSTRING', '3,1', 'rule SUBSTRING: end must not be before begin'],
      ['CONCAT', 'plain', "rule CONCAT needs at least one column placeholder such as '{A}'"],
      ['DEFAULT', null, 'rule DEFAULT needs the default value in transformArgs'],
      [null, 'x', 'transformArgs without a transformRule'],
    ];
    for (const [rule, args, message] of bad) {
      expect(() => compileColumnRule(rule, args), `${rule} ${args}`).toThrow(new RuleSyntaxError(message));
    }
  });
});

describe('target types', () => {
  it('coerces values exactly', () => {
    expect(coerce('1,234.565', 'AMOUNT')).toEqual({ ok: true, value: '1234.57' });
    expect(coerce('-0.125', 'AMOUNT')).toEqual({ ok: true, value: '-0.13' });
    expect(coerce('3.30005', 'RATE')).toEqual({ ok: true, value: '3.3001' });
    expect(coerce('12', 'INTEGER')).toEqual({ ok: true, value: '12' });
    expect(coerce('1.5', 'INTEGER')).toEqual({ ok: false, message: "'1.5' is not a whole number" });
    expect(coerce('20250131', 'DATE')).toEqual({ ok: true, value: '2025-01-31' });
    expect(coerce('2025-01-31 00:00:00', 'DATE')).toEqual({ ok: true, value: '2025-01-31' });
    expect(coerce('Y', 'BOOLEAN')).toEqual({ ok: true, value: true });
    expect(coerce('maybe', 'BOOLEAN')).toEqual({
      ok: false,
      message: "'maybe' is not Y/N, TRUE/FALSE or 1/0",
    });
  });
});
