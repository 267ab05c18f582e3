import type { UploadTransformRule } from '@csp/db';
import { columnIndex } from '../parsing/columns.js';
import { compileDateFormat, convertDate } from '../transform/date-format.js';
import { parsePlainNumber, plainText } from '../transform/numbers.js';
import { RuleSyntaxError } from '../transform/rules.js';
import { isLookupName, LOOKUP_NAMES, type LookupName } from './lookups.js';

/**
 * The 13 transform rules of upload template columns (spec 2.5): one rule per column, its argument
 * in transform_args. Argument syntax:
 *
 * | rule | transform_args | effect |
 * |---|---|---|
 * | TRIM, UPPER, LOWER | none | white space trimmed / case changed |
 * | DATE | source format of yyyy, MM, dd (default yyyy-MM-dd) | 'YYYY-MM-DD'; a date cell of the sheet passes as is |
 * | DIVIDE, MULTIPLY | a number | exact decimal arithmetic |
 * | LOOKUP | a lookup name (LOOKUP_NAMES) | the id the value names, e.g. AGENT_BY_LICENSE: license number -> agent id |
 * | CODE_MAP | a code type / common-code group | the carrier's code_mapping (template with a carrier) or the common code whose code or name is the value |
 * | FIXED | the value | that value, whatever the cell holds |
 * | REPLACE | search=>replacement | every occurrence replaced |
 * | SUBSTRING | begin[,end] | characters begin..end-1, 0-based (Java String.substring) |
 * | CONCAT | a pattern with {A}, {B} ... | the pattern with each {X} replaced by column X of the row |
 * | DEFAULT | the value | the value when the cell is blank |
 */
export const TEMPLATE_RULES: readonly UploadTransformRule[] = [
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
];

/** Rules that compute a value even from a blank cell. */
const ALWAYS_APPLIED = new Set<UploadTransformRule>(['FIXED', 'CONCAT']);

export interface RuleContext {
  /** Cells of the whole row (for CONCAT). */
  cells: readonly string[];
  /** CODE_MAP: the mapped code or undefined. */
  codeMap(codeType: string, value: string): string | undefined;
}

export type RuleResult =
  | { ok: true; value: string | null }
  | { ok: true; lookup: LookupName; key: string }
  | { ok: false; message: string };

export interface CompiledRule {
  rule: UploadTransformRule | null;
  /** Applies the rule to a cell ('' = blank); null value = blank after the rule. */
  apply(cell: string, defaultValue: string | null, ctx: RuleContext): RuleResult;
}

function needArg(rule: string, args: string | null, what: string): string {
  if (args === null || args.trim() === '')
    throw new RuleSyntaxError(`rule ${rule} needs ${what} in transformArgs`);
  return args;
}

function noArg(rule: string, args: string | null): void {
  if (args !== null && args.trim() !== '') throw new RuleSyntaxError(`rule ${rule} takes no transformArgs`);
}

type Transform = (value: string, ctx: RuleContext) => RuleResult;

function compileTransform(rule: UploadTransformRule, args: string | null): Transform {
  switch (rule) {
    case 'TRIM':
      noArg(rule, args);
      return (v) => ({ ok: true, value: v.trim() });
    case 'UPPER':
      noArg(rule, args);
      return (v) => ({ ok: true, value: v.toUpperCase() });
    case 'LOWER':
      noArg(rule, args);
      return (v) => ({ ok: true, value: v.toLowerCase() });
    case 'DATE': {
      const format = args?.trim() || 'yyyy-MM-dd';
      try {
        compileDateFormat(format);
      } catch (err) {
        throw new RuleSyntaxError((err as Error).message);
      }
      return (v) => {
        const text = v.trim();
        // a date cell of the workbook arrives as 'YYYY-MM-DD' already
        const iso = /^(\d{4}-\d{2}-\d{2})(?: 00:00:00)?$/.exec(text);
        try {
          return { ok: true, value: iso ? convertDate(iso[1]!, 'yyyy-MM-dd') : convertDate(text, format) };
        } catch (err) {
          return { ok: false, message: (err as Error).message };
        }
      };
    }
    case 'DIVIDE':
    case 'MULTIPLY': {
      const factor = parsePlainNumber(needArg(rule, args, 'a number'));
      if (factor === undefined)
        throw new RuleSyntaxError(`rule ${rule} needs a number in transformArgs, got '${args}'`);
      if (rule === 'DIVIDE' && factor.isZero())
        throw new RuleSyntaxError('rule DIVIDE cannot divide by zero');
      return (v) => {
        const n = parsePlainNumber(v);
        if (n === undefined) return { ok: false, message: `'${v}' is not a number` };
        return { ok: true, value: plainText(rule === 'DIVIDE' ? n.dividedBy(factor) : n.times(factor)) };
      };
    }
    case 'LOOKUP': {
      const name = needArg(rule, args, 'a lookup name').trim().toUpperCase();
      if (!isLookupName(name)) {
        throw new RuleSyntaxError(`unknown lookup '${args}' (one of ${LOOKUP_NAMES.join(', ')})`);
      }
      return (v) => ({ ok: true, lookup: name, key: v.trim() });
    }
    case 'CODE_MAP': {
      const codeType = needArg(rule, args, 'a code type').trim();
      return (v, ctx) => {
        const mapped = ctx.codeMap(codeType, v.trim());
        return mapped === undefined
          ? { ok: false, message: `no code mapping of type ${codeType} for '${v.trim()}'` }
          : { ok: true, value: mapped };
      };
    }
    case 'FIXED': {
      const value = args ?? '';
      return () => ({ ok: true, value: value === '' ? null : value });
    }
    case 'REPLACE': {
      const text = needArg(rule, args, "'search=>replacement'");
      const arrow = text.indexOf('=>');
      if (arrow <= 0) throw new RuleSyntaxError("rule REPLACE needs transformArgs 'search=>replacement'");
      const search = text.slice(0, arrow);
      const replacement = text.slice(arrow + 2);
      return (v) => ({ ok: true, value: v.split(search).join(replacement) });
    }
    case 'SUBSTRING': {
      const m = /^\s*(\d+)\s*(?:,\s*(\d+)\s*)?$/.exec(needArg(rule, args, "'begin[,end]'"));
      if (!m)
        throw new RuleSyntaxError("rule SUBSTRING needs transformArgs 'begin[,end]' (0-based whole numbers)");
      const begin = Number(m[1]);
      const end = m[2] === undefined ? undefined : Number(m[2]);
      if (end !== undefined && end < begin)
        throw new RuleSyntaxError('rule SUBSTRING: end must not be before begin');
      return (v) => ({ ok: true, value: v.substring(begin, end) });
    }
    case 'CONCAT': {
      const pattern = needArg(rule, args, "a pattern such as '{A}-{B}'");
      const parts: Array<string | number> = [];
      let last = 0;
      for (const m of pattern.matchAll(/\{([A-Z]{1,3})\}/g)) {
        if (m.index! > last) parts.push(pattern.slice(last, m.index));
        parts.push(columnIndex(m[1]!)!);
        last = m.index! + m[0].length;
      }
      if (last < pattern.length) parts.push(pattern.slice(last));
      if (!parts.some((p) => typeof p === 'number')) {
        throw new RuleSyntaxError("rule CONCAT needs at least one column placeholder such as '{A}'");
      }
      return (_v, ctx) => ({
        ok: true,
        value: parts.map((p) => (typeof p === 'number' ? (ctx.cells[p] ?? '') : p)).join(''),
      });
    }
    case 'DEFAULT': {
      const value = needArg(rule, args, 'the default value');
      return (v) => ({ ok: true, value: v.trim() === '' ? value : v });
    }
  }
}

/** Checks and compiles a column's rule; a bad rule or argument throws RuleSyntaxError. */
export function compileColumnRule(rule: UploadTransformRule | null, args: string | null): CompiledRule {
  if (rule === null) {
    if (args !== null && args.trim() !== '')
      throw new RuleSyntaxError('transformArgs without a transformRule');
    return {
      rule,
      apply: (cell, defaultValue) => ({ ok: true, value: cell.trim() === '' ? defaultValue : cell }),
    };
  }
  if (!TEMPLATE_RULES.includes(rule)) throw new RuleSyntaxError(`unknown transform rule '${rule}'`);
  const transform = compileTransform(rule, args);
  return {
    rule,
    apply(cell, defaultValue, ctx) {
      const blank = cell.trim() === '';
      if (blank && rule === 'DEFAULT') return transform(cell, ctx);
      if (blank && !ALWAYS_APPLIED.has(rule)) return { ok: true, value: defaultValue };
      const result = transform(cell, ctx);
      if (result.ok && 'value' in result && (result.value === null || result.value.trim() === '')) {
        return { ok: true, value: defaultValue };
      }
      return result;
    },
  };
}
