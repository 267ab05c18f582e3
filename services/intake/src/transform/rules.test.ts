import { describe, expect, it } from 'vitest';
import { RuleSyntaxError, parseRuleChain, transformValue, type TransformContext } from './rules.js';

const codes = new Map([
  ['INSURANCE_TYPE\u000001', 'LIFE'],
  ['INSURANCE_TYPE\u000002', 'ANNUITY'],
]);
const ctx: TransformContext = {
  defaultDateFormat: 'yyyyMMdd',
  codeMap: (type, code) => codes.get(`${type}\u0000${code}`),
};

function ok(value: string, rule: string): string {
  const r = transformValue(value, rule, ctx);
  if (!r.ok) throw new Error(`expected ok, got ${r.errorType}: ${r.message}`);
  return r.value;
}

describe('rule chain syntax', () => {
  it('parses pipe-chained rules with arguments, case-insensitive names', () => {
    expect(parseRuleChain(' trim | Upper|DIVIDE: 100 |CODE_MAP:INSURANCE_TYPE|DATE:yyyy.MM.dd')).toEqual([
      { name: 'TRIM', arg: undefined, text: 'trim' },
      { name: 'UPPER', arg: undefined, text: 'Upper' },
      { name: 'DIVIDE', arg: '100', text: 'DIVIDE: 100' },
      { name: 'CODE_MAP', arg: 'INSURANCE_TYPE', text: 'CODE_MAP:INSURANCE_TYPE' },
      { name: 'DATE', arg: 'yyyy.MM.dd', text: 'DATE:yyyy.MM.dd' },
    ]);
  });

  it('treats null, empty and blank rule texts as no rules', () => {
    expect(parseRuleChain(null)).toEqual([]);
    expect(parseRuleChain('')).toEqual([]);
    expect(parseRuleChain('   ')).toEqual([]);
    expect(ok(' as is ', '')).toBe(' as is ');
  });

  it.each([
    ['SUBSTRING:1', "unknown transform rule 'SUBSTRING:1'"],
    ['TRIM||UPPER', 'empty rule in the chain'],
    ['TRIM:x', 'rule TRIM takes no argument'],
    ['DIVIDE', "rule DIVIDE needs a numeric argument, got ''"],
    ['MULTIPLY:abc', "rule MULTIPLY needs a numeric argument, got 'abc'"],
    ['CODE_MAP', 'rule CODE_MAP needs a code type argument'],
    ['DATE:yyyy-MM', "date format 'yyyy-MM' must contain yyyy, MM and dd"],
    ['DATE:yyyyMMddHH', "date format 'yyyyMMddHH' has an unsupported letter 'H'"],
  ])('refuses %s with a syntax error that becomes TRANSFORM_FAIL', (rule, message) => {
    expect(() => parseRuleChain(rule)).toThrow(RuleSyntaxError);
    expect(transformValue('1', rule, ctx)).toEqual({ ok: false, errorType: 'TRANSFORM_FAIL', rule, message });
  });
});

describe('TRIM, UPPER, LOWER', () => {
  it('TRIM removes surrounding white space only', () => {
    expect(ok('  P 001 \t', 'TRIM')).toBe('P 001');
  });
  it('UPPER and LOWER change case', () => {
    expect(ok('pol-a1', 'UPPER')).toBe('POL-A1');
    expect(ok('POL-A1', 'LOWER')).toBe('pol-a1');
  });
  it('applies the chain left to right', () => {
    expect(ok('  pol-a1 ', 'TRIM|UPPER')).toBe('POL-A1');
    expect(ok('  POL ', 'LOWER')).toBe('  pol ');
  });
});

describe('DATE', () => {
  it.each([
    ['20250115', 'DATE:yyyyMMdd', '2025-01-15'],
    ['2025-01-15', 'DATE:yyyy-MM-dd', '2025-01-15'],
    ['2025.01.15', 'DATE:yyyy.MM.dd', '2025-01-15'],
    ['15/01/2025', 'DATE:dd/MM/yyyy', '2025-01-15'],
    [' 20240229 ', 'DATE:yyyyMMdd', '2024-02-29'],
    ['20250115', 'DATE', '2025-01-15'],
  ])('%s with %s gives %s', (value, rule, expected) => {
    expect(ok(value, rule)).toBe(expected);
  });

  it('uses the company default format when the rule has no argument', () => {
    const iso = { ...ctx, defaultDateFormat: 'yyyy-MM-dd' };
    expect(transformValue('2025-03-31', 'DATE', iso)).toEqual({ ok: true, value: '2025-03-31' });
    expect(transformValue('20250331', 'DATE', iso)).toMatchObject({ ok: false, errorType: 'TRANSFORM_FAIL' });
  });

  it.each([
    ['2025-01-15', 'DATE:yyyyMMdd', "DATE:yyyyMMdd: '2025-01-15' does not match the date format yyyyMMdd"],
    ['20250230', 'DATE:yyyyMMdd', "DATE:yyyyMMdd: '20250230' is not a real calendar date"],
    ['20231301', 'DATE:yyyyMMdd', "DATE:yyyyMMdd: '20231301' is not a real calendar date"],
    ['2025115', 'DATE:yyyyMMdd', "DATE:yyyyMMdd: '2025115' does not match the date format yyyyMMdd"],
  ])('fails %s with %s', (value, rule, message) => {
    expect(transformValue(value, rule, ctx)).toEqual({
      ok: false,
      errorType: 'TRANSFORM_FAIL',
      rule,
      message,
    });
  });
});

describe('DIVIDE and MULTIPLY', () => {
  it('divides exactly with the domain Decimal', () => {
    expect(ok('1234567', 'DIVIDE:100')).toBe('12345.67');
    expect(ok('0.3', 'DIVIDE:0.1')).toBe('3');
    expect(ok('1,234,500', 'DIVIDE:1000')).toBe('1234.5');
    expect(ok('-500', 'DIVIDE:4')).toBe('-125');
    expect(ok('99999999999999.99', 'DIVIDE:1')).toBe('99999999999999.99');
  });

  it('keeps 40 significant digits for a non-terminating quotient', () => {
    expect(ok('1', 'DIVIDE:3')).toBe(`0.${'3'.repeat(40)}`);
  });

  it('multiplies exactly', () => {
    expect(ok('0.1', 'MULTIPLY:3')).toBe('0.3');
    expect(ok('123.45', 'MULTIPLY:1000')).toBe('123450');
    expect(ok(' 12.5 ', 'MULTIPLY:-2')).toBe('-25');
    expect(ok('3', 'TRIM|MULTIPLY:100|DIVIDE:4')).toBe('75');
  });

  it.each([
    ['12a', 'DIVIDE:100', "DIVIDE:100: '12a' is not a number"],
    ['1e3', 'MULTIPLY:2', "MULTIPLY:2: '1e3' is not a number"],
    ['', 'MULTIPLY:2', "MULTIPLY:2: '' is not a number"],
    ['1,23', 'DIVIDE:1', "DIVIDE:1: '1,23' is not a number"],
    ['100', 'DIVIDE:0', 'DIVIDE:0: division by zero'],
    ['100', 'DIVIDE:0.00', 'DIVIDE:0.00: division by zero'],
  ])('fails %s with %s', (value, rule, message) => {
    expect(transformValue(value, rule, ctx)).toEqual({
      ok: false,
      errorType: 'TRANSFORM_FAIL',
      rule,
      message,
    });
  });
});

describe('CODE_MAP', () => {
  it('maps a carrier code through the active code mappings of the code type', () => {
    expect(ok('01', 'CODE_MAP:INSURANCE_TYPE')).toBe('LIFE');
    expect(ok(' 02 ', 'TRIM|CODE_MAP:INSURANCE_TYPE')).toBe('ANNUITY');
  });

  it('fails with CODE_MAP_FAIL when no mapping exists (exact match, per code type)', () => {
    expect(transformValue('03', 'CODE_MAP:INSURANCE_TYPE', ctx)).toEqual({
      ok: false,
      errorType: 'CODE_MAP_FAIL',
      rule: 'CODE_MAP:INSURANCE_TYPE',
      message: "no active code mapping of type INSURANCE_TYPE for '03'",
    });
    expect(transformValue(' 01', 'CODE_MAP:INSURANCE_TYPE', ctx)).toMatchObject({
      ok: false,
      errorType: 'CODE_MAP_FAIL',
    });
    expect(transformValue('01', 'CODE_MAP:PAY_METHOD', ctx)).toMatchObject({
      ok: false,
      errorType: 'CODE_MAP_FAIL',
    });
  });

  it('stops the chain at the first failing rule', () => {
    expect(transformValue('x', 'CODE_MAP:INSURANCE_TYPE|DIVIDE:0', ctx)).toMatchObject({
      errorType: 'CODE_MAP_FAIL',
    });
  });
});
