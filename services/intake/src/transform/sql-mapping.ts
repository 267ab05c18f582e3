import { sql, type RawBuilder } from 'kysely';
import type { DataType, FieldMapping, LedgerTable } from './record-mapper.js';
import { parseRuleChain, type TransformRule } from './rules.js';
import { checkTargetValue, isTargetField, TARGET_FIELDS, type TargetFieldName } from './target-fields.js';

/**
 * A carrier's field mappings of one data type compiled to SQL (step 2's set-based path). The SQL
 * takes only the records it can prove the JS mapper (record-mapper.ts) maps without an error and to
 * the same values: flat JSON objects, printable-ASCII strings or plain numbers, and the rules TRIM,
 * UPPER, LOWER, CODE_MAP and one DIVIDE/MULTIPLY into a money field whose result is exact. Every
 * other record (any error, DATE, unusual characters or numbers) is left to the JS mapper, so error
 * codes and messages have one source. Every expression yields NULL where the JS mapper would fail
 * or differ; materialized CTEs keep each field's work to one evaluation per record.
 */

type Frag = RawBuilder<unknown>;

/** The mapped columns of a branch, in this order (NULL = not mapped or blank). */
export const MAPPED_COLUMNS = [
  'policy_no',
  'premium',
  'company_amount',
  'commission_year',
  'product_code',
  'insurance_type',
  'pay_method',
] as const satisfies readonly TargetFieldName[];
type MappedColumn = (typeof MAPPED_COLUMNS)[number];

const COLUMN_TYPE: Record<MappedColumn, string> = {
  policy_no: 'text',
  premium: 'numeric',
  company_amount: 'numeric',
  commission_year: 'int',
  product_code: 'text',
  insurance_type: 'text',
  pay_method: 'text',
};

/**
 * A raw_content the regex accepts is a flat JSON object PostgreSQL parses like JSON.parse (with the
 * length limit, no number leaves numeric's range). Plain quantifiers only: bounded repetitions blow
 * up PostgreSQL's regex automaton, so lengths are checked apart from the regexes.
 */
const CTRL = `${String.fromCharCode(1)}-${String.fromCharCode(0x1f)}`;
// no backslash: no escapes (\u0000 would make the cast fail), no raw control characters
const STR = `"[^"\\\\${CTRL}]*"`;
const NUM = '-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9][0-9]?[0-9]?)?';
const VAL = `(${STR}|${NUM}|null|true|false)`;
const PAIR = ` *${STR} *: *${VAL} *`;
export const FLAT_JSON_OBJECT = `^[{](${PAIR}(,${PAIR})*| *)[}]$`;
/** The shape JSON.stringify gives a record of strings: a far cheaper regex, tried first. */
export const STRING_JSON_OBJECT = `^[{]${STR}:${STR}(,${STR}:${STR})*[}]$`;
export const FLAT_JSON_MAX_LENGTH = 10_000;

/** A JSON number whose text JSON.parse + String() gives back unchanged (at most 15 digits, no trailing zero). */
const PLAIN_JSON_NUMBER = '^(0|[1-9][0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?)([.][0-9]?[1-9])?$';
const PRINTABLE_ASCII = '^[ -~]*$';
/** Unsigned money that needs no rounding past numeric(15,2)'s limit (JS: plainMoney or round2 < 10^13). */
const MONEY_TEXT = '^[0-9]+([.][0-9]+)?$';
const MONEY_MAX_INT_DIGITS = 13;
/** An arithmetic operand: exact in decimal.js (40 digits) and in numeric(40,20) (length-checked apart). */
const OPERAND = '^[0-9]+([.][0-9]+)?$';

type Stage = { kind: 'text'; expr: Frag } | { kind: 'num'; expr: Frag };

/** The factor of DIVIDE/MULTIPLY when the result is exact in both decimal.js and PostgreSQL. */
function exactFactor(rule: TransformRule): string | undefined {
  const arg = rule.arg?.trim() ?? '';
  const m = /^(\d{1,15})(?:\.(\d{1,6}))?$/.exec(arg);
  if (!m) return undefined;
  const digits = BigInt(`${m[1]}${m[2] ?? ''}`);
  if (digits === 0n) return undefined;
  if (rule.name === 'MULTIPLY') return m[1]!.length + (m[2]?.length ?? 0) <= 15 ? arg : undefined;
  // n / (a / 10^k) terminates within 16 decimals when a = 2^x 5^y, x, y <= 10.
  let a = digits;
  let twos = 0;
  let fives = 0;
  while (a % 2n === 0n) {
    a /= 2n;
    twos++;
  }
  while (a % 5n === 0n) {
    a /= 5n;
    fives++;
  }
  return a === 1n && twos <= 10 && fives <= 10 ? arg : undefined;
}

/** The rule chain over a printable-ASCII text, or undefined when the SQL cannot follow it exactly. */
function compileChain(input: Frag, rules: readonly TransformRule[], companyCode: string): Stage | undefined {
  let stage: Stage = { kind: 'text', expr: input };
  for (const rule of rules) {
    if (stage.kind === 'num') return undefined;
    const x: Frag = stage.expr;
    switch (rule.name) {
      case 'TRIM':
        stage = { kind: 'text', expr: sql`btrim(${x}, ' ')` };
        break;
      case 'UPPER':
        // ASCII text: the C collation's case mapping is ASCII's, as JS's is for ASCII
        stage = { kind: 'text', expr: sql`upper(${x} COLLATE "C")` };
        break;
      case 'LOWER':
        stage = { kind: 'text', expr: sql`lower(${x} COLLATE "C")` };
        break;
      case 'CODE_MAP':
        // (company, code type, source code) is unique: the same single target JS reads.
        stage = {
          kind: 'text',
          expr: sql`(SELECT cm.target_code::text FROM code_mapping cm
            WHERE cm.company_code = ${companyCode}::text AND cm.code_type = ${rule.arg!}::text
              AND cm.source_code = ${x} AND cm.is_active AND cm.target_code ~ ${PRINTABLE_ASCII}::text)`,
        };
        break;
      case 'DIVIDE':
      case 'MULTIPLY': {
        const factor = exactFactor(rule);
        if (factor === undefined) return undefined;
        // at most 15 integer digits and 6 decimals
        const y = sql`btrim(${x}, ' ')`;
        const operand = sql`(CASE WHEN ${y} ~ ${OPERAND}::text AND strpos(${y} || '.', '.') <= 16
          AND char_length(${y}) - strpos(${y} || '.', '.') <= 6 THEN ${y}::numeric(40,20) END)`;
        stage = {
          kind: 'num',
          expr: rule.name === 'DIVIDE' ? sql`(${operand} / ${factor}::numeric)` : sql`(${operand} * ${factor}::numeric)`,
        };
        break;
      }
      case 'DATE':
        return undefined;
    }
  }
  return stage;
}

/** The target check of a transformed value: the checked value, or NULL where checkTargetValue fails. */
function compileCheck(field: string, stage: Stage, settleMonth: string): Frag | undefined {
  if (!isTargetField(field)) return stage.expr; // only needs to transform
  const spec = TARGET_FIELDS[field];
  const x = stage.expr;
  if (stage.kind === 'num') {
    if (spec.kind !== 'money') return undefined;
    return sql`(CASE WHEN round(${x}, 2) < 10000000000000 THEN round(${x}, 2) END)`;
  }
  switch (spec.kind) {
    case 'text':
      return sql`(CASE WHEN char_length(${x}) <= ${spec.maxLength}::int THEN ${x} END)`;
    case 'money': {
      // JS: at most 13 integer digits (numeric(15,2)), and the rounded value below 10^13
      const y = sql`btrim(${x}, ' ')`;
      return sql`(CASE WHEN ${y} ~ ${MONEY_TEXT}::text AND strpos(${y} || '.', '.') <= ${MONEY_MAX_INT_DIGITS + 1}::int
        AND char_length(${y}) <= 40 THEN CASE WHEN round(${y}::numeric, 2) < 10000000000000 THEN round(${y}::numeric, 2) END END)`;
    }
    case 'integer': {
      const y = sql`btrim(${x}, ' ')`;
      return sql`(CASE WHEN ${y} ~ '^[0-9]+$' AND char_length(${y}) <= 9 THEN
        CASE WHEN ${y}::int BETWEEN ${spec.min}::int AND ${spec.max}::int THEN ${y}::int END END)`;
    }
    case 'settleMonth':
      return sql`(CASE WHEN btrim(${x}, ' ') = ${settleMonth}::text THEN ${settleMonth}::text END)`;
  }
}

interface CompiledField {
  mapping: FieldMapping;
  /** Value of a present (non-blank) source value; NULL where JS fails. Undefined: never in SQL. */
  present: Frag | undefined;
  /** A blank source value: undefined = JS fails (REQUIRED or a default that fails its check). */
  blank: { value: string | null } | undefined;
}

function compileField(mapping: FieldMapping, index: number, companyCode: string, settleMonth: string): CompiledField {
  const field = mapping.targetField;
  let blank: CompiledField['blank'];
  if (mapping.defaultValue !== null) {
    if (!isTargetField(field)) blank = { value: null };
    else {
      const checked = checkTargetValue(field, mapping.defaultValue, settleMonth);
      blank = checked.ok && !(field === 'policy_no' && checked.value.trim() === '') ? { value: checked.value } : undefined;
    }
  } else blank = mapping.isRequired || field === 'policy_no' ? undefined : { value: null };

  let present: Frag | undefined;
  try {
    const stage = compileChain(sql.ref(`b.t_${index}`), parseRuleChain(mapping.transformRule), companyCode);
    present = stage && compileCheck(field, stage, settleMonth);
  } catch {
    present = undefined; // rule syntax error: TRANSFORM_FAIL in JS
  }
  return { mapping, present, blank };
}

/** A branch: its CTEs (to go after `src`) and the SELECT of its mapped columns. */
export interface CompiledBranch {
  ctes: Frag;
  select: Frag;
}

/**
 * One branch of the chunk statement: the mapped columns of the records of one carrier and data type
 * that the SQL maps exactly, read from the CTE `src` (raw_id, company_code, data_type, j jsonb).
 * Three materialized CTEs (source texts, their classes, the transformed values) make every
 * expression run once per record. Undefined when no record can be mapped in SQL (no mappings, or
 * no policy number mapping).
 */
export function compileBranch(
  branchNo: number,
  companyCode: string,
  dataType: DataType,
  table: LedgerTable,
  mappings: readonly FieldMapping[],
  settleMonth: string,
): CompiledBranch | undefined {
  if (mappings.length === 0) return undefined;
  const fields = mappings.map((m, i) => compileField(m, i, companyCode, settleMonth));
  const policy = fields.find((f) => f.mapping.targetField === 'policy_no');
  if (!policy) return undefined;
  const [aName, bName, cName] = ['a', 'b', 'c'].map((x) => sql.table(`${x}_${branchNo}`));
  const t = (i: number) => sql.ref(`t_${i}`);
  const k = (i: number) => sql.ref(`k_${i}`);
  const c = (i: number) => sql.ref(`c_${i}`);
  const v = (i: number) => sql.ref(`v_${i}`);

  // a: the source value as text and its JSON type
  const aCols = fields.map(
    (f, i) => sql`s.j ->> ${f.mapping.sourceField}::text AS ${t(i)}, jsonb_typeof(s.j -> ${f.mapping.sourceField}::text) AS ${k(i)}`,
  );
  // b: its class: V = present, B = blank, X = not for SQL (structured, unusual characters or numbers).
  // ASCII only; control characters cannot occur (the raw JSON has no escapes, and raw ones are refused).
  const bCols = fields.map(
    (_f, i) => sql`a.${t(i)}, CASE
        WHEN a.${k(i)} IS NULL OR a.${k(i)} = 'null' THEN 'B'
        WHEN a.${k(i)} = 'string' THEN CASE WHEN octet_length(a.${t(i)}) <> char_length(a.${t(i)}) THEN 'X'
                                           WHEN btrim(a.${t(i)}, ' ') = '' THEN 'B' ELSE 'V' END
        WHEN a.${k(i)} = 'number' THEN CASE WHEN a.${t(i)} ~ ${PLAIN_JSON_NUMBER}::text THEN 'V' ELSE 'X' END
        ELSE 'X' END AS ${c(i)}`,
  );
  // c: the transformed and checked value of a present source value (NULL where JS fails)
  const cCols = fields.map(
    (f, i) =>
      sql`b.${c(i)}, ${f.present === undefined ? sql`NULL` : sql`CASE WHEN b.${c(i)} = 'V' THEN ${f.present} END`} AS ${v(i)}`,
  );
  const conditions = fields.map((f, i) => {
    const onPresent = f.present === undefined ? sql`false` : sql`x.${v(i)} IS NOT NULL`;
    return sql`CASE x.${c(i)} WHEN 'V' THEN ${onPresent} WHEN 'B' THEN ${f.blank ? sql`true` : sql`false`} ELSE false END`;
  });
  const policyIndex = fields.indexOf(policy);
  conditions.push(sql`(x.${c(policyIndex)} <> 'V' OR btrim(x.${v(policyIndex)}::text, ' ') <> '')`);

  // The newest mapping of a target field applies (one per field: loadCompanyRules' DISTINCT ON).
  const columns = MAPPED_COLUMNS.map((column) => {
    const i = fields.findIndex((f) => f.mapping.targetField === column);
    const type = sql.raw(COLUMN_TYPE[column]);
    if (i < 0) return sql`NULL::${type} AS ${sql.ref(column)}`;
    const blankValue = fields[i]!.blank?.value ?? null;
    return sql`CASE WHEN x.${c(i)} = 'V' THEN x.${v(i)}::${type} ELSE ${blankValue}::${type} END AS ${sql.ref(column)}`;
  });

  return {
    ctes: sql`${aName} AS MATERIALIZED (
        SELECT s.raw_id, s.company_code, ${sql.join(aCols)} FROM src s
        WHERE s.company_code = ${companyCode}::text AND s.data_type = ${dataType}::text AND s.j IS NOT NULL
      ), ${bName} AS MATERIALIZED (SELECT a.raw_id, a.company_code, ${sql.join(bCols)} FROM ${aName} a),
      ${cName} AS MATERIALIZED (SELECT b.raw_id, b.company_code, ${sql.join(cCols)} FROM ${bName} b)`,
    select: sql`
      SELECT x.raw_id, ${table}::text AS tbl, ${dataType}::text AS dtype, x.company_code::text AS company_code,
        ${sql.join(columns)}
      FROM ${cName} x
      WHERE ${sql.join(conditions, sql` AND `)}`,
  };
}
