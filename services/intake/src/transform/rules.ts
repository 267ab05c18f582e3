import { compileDateFormat, convertDate } from './date-format.js';
import { parsePlainNumber, plainText } from './numbers.js';

/**
 * The transform rules of company_field_mapping.transform_rule (spec 1.3 step 2). A rule text is a
 * pipe-separated chain applied left to right: `TRIM|UPPER`, `DIVIDE:100`, `TRIM|DATE:yyyyMMdd`,
 * `TRIM|CODE_MAP:INSURANCE_TYPE`. Rule names are case-insensitive; the argument is everything after
 * the first ':' of the token (trimmed). This module is pure: CODE_MAP asks the context.
 */
export const RULE_NAMES = ['TRIM', 'UPPER', 'LOWER', 'DATE', 'DIVIDE', 'MULTIPLY', 'CODE_MAP'] as const;
export type RuleName = (typeof RULE_NAMES)[number];

export interface TransformRule {
  name: RuleName;
  arg: string | undefined;
  /** The token as written, for messages. */
  text: string;
}

export interface TransformContext {
  /** Source format for DATE without an argument (company_profile.date_format). */
  defaultDateFormat: string;
  /** Active code_mapping target code for (code type, carrier code), or undefined. */
  codeMap(codeType: string, sourceCode: string): string | undefined;
}

export type TransformErrorType = 'TRANSFORM_FAIL' | 'CODE_MAP_FAIL';

export type TransformResult =
  { ok: true; value: string } | { ok: false; errorType: TransformErrorType; rule: string; message: string };

/** A rule text that cannot be parsed (unknown rule, missing or invalid argument). */
export class RuleSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuleSyntaxError';
  }
}

const NO_ARG: ReadonlySet<RuleName> = new Set(['TRIM', 'UPPER', 'LOWER']);

function isRuleName(name: string): name is RuleName {
  return (RULE_NAMES as readonly string[]).includes(name);
}

function parseToken(token: string): TransformRule {
  const text = token.trim();
  if (text === '') throw new RuleSyntaxError('empty rule in the chain');
  const colon = text.indexOf(':');
  const name = (colon < 0 ? text : text.slice(0, colon)).trim().toUpperCase();
  const arg = colon < 0 ? undefined : text.slice(colon + 1).trim();
  if (!isRuleName(name)) throw new RuleSyntaxError(`unknown transform rule '${text}'`);
  if (NO_ARG.has(name) && arg !== undefined) throw new RuleSyntaxError(`rule ${name} takes no argument`);
  if (
    (name === 'DIVIDE' || name === 'MULTIPLY') &&
    (arg === undefined || parsePlainNumber(arg) === undefined)
  ) {
    throw new RuleSyntaxError(`rule ${name} needs a numeric argument, got '${arg ?? ''}'`);
  }
  if (name === 'CODE_MAP' && !arg) throw new RuleSyntaxError('rule CODE_MAP needs a code type argument');
  if (name === 'DATE' && arg !== undefined) {
    if (arg === '') throw new RuleSyntaxError('rule DATE has an empty format');
    try {
      compileDateFormat(arg);
    } catch (err) {
      throw new RuleSyntaxError((err as Error).message);
    }
  }
  return { name, arg: arg === '' ? undefined : arg, text };
}

const parsedCache = new Map<string, TransformRule[]>();

/** Parses a rule chain; null/blank = no rules. Throws RuleSyntaxError. */
export function parseRuleChain(text: string | null | undefined): TransformRule[] {
  if (text === null || text === undefined || text.trim() === '') return [];
  const hit = parsedCache.get(text);
  if (hit) return hit;
  const rules = text.split('|').map(parseToken);
  parsedCache.set(text, rules);
  return rules;
}

function fail(
  rule: TransformRule,
  message: string,
  errorType: TransformErrorType = 'TRANSFORM_FAIL',
): TransformResult {
  return { ok: false, errorType, rule: rule.text, message };
}

function applyOne(value: string, rule: TransformRule, ctx: TransformContext): TransformResult {
  switch (rule.name) {
    case 'TRIM':
      return { ok: true, value: value.trim() };
    case 'UPPER':
      return { ok: true, value: value.toUpperCase() };
    case 'LOWER':
      return { ok: true, value: value.toLowerCase() };
    case 'DATE': {
      const format = rule.arg ?? ctx.defaultDateFormat;
      try {
        return { ok: true, value: convertDate(value, format) };
      } catch (err) {
        return fail(rule, `${rule.text}: ${(err as Error).message}`);
      }
    }
    case 'DIVIDE':
    case 'MULTIPLY': {
      const n = parsePlainNumber(value);
      if (n === undefined) return fail(rule, `${rule.text}: '${value}' is not a number`);
      const factor = parsePlainNumber(rule.arg!)!;
      if (rule.name === 'DIVIDE') {
        if (factor.isZero()) return fail(rule, `${rule.text}: division by zero`);
        return { ok: true, value: plainText(n.dividedBy(factor)) };
      }
      return { ok: true, value: plainText(n.times(factor)) };
    }
    case 'CODE_MAP': {
      const target = ctx.codeMap(rule.arg!, value);
      if (target === undefined) {
        return fail(rule, `no active code mapping of type ${rule.arg} for '${value}'`, 'CODE_MAP_FAIL');
      }
      return { ok: true, value: target };
    }
  }
}

/** Applies the chain to a value; the first failing rule stops it. */
export function applyRules(
  value: string,
  rules: readonly TransformRule[],
  ctx: TransformContext,
): TransformResult {
  let current = value;
  for (const rule of rules) {
    const result = applyOne(current, rule, ctx);
    if (!result.ok) return result;
    current = result.value;
  }
  return { ok: true, value: current };
}

/** parseRuleChain + applyRules; a syntax error of the rule text is a TRANSFORM_FAIL. */
export function transformValue(
  value: string,
  ruleText: string | null | undefined,
  ctx: TransformContext,
): TransformResult {
  let rules: TransformRule[];
  try {
    rules = parseRuleChain(ruleText);
  } catch (err) {
    return { ok: false, errorType: 'TRANSFORM_FAIL', rule: ruleText ?? '', message: (err as Error).message };
  }
  return applyRules(value, rules, ctx);
}
