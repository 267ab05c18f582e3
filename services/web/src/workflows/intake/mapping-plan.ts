/**
 * The column-to-field mapping of the wizard, without React: the ledger fields a carrier column can
 * feed (intake's TARGET_FIELDS), a first guess from the header names, and what saving changes.
 */

export const TARGET_FIELDS = [
  'policy_no',
  'premium',
  'company_amount',
  'commission_year',
  'product_code',
  'insurance_type',
  'pay_method',
  'settle_month',
] as const;
export type TargetField = (typeof TARGET_FIELDS)[number];

/** The field every record needs: without it no row can be matched to a contract. */
export const REQUIRED_TARGET: TargetField = 'policy_no';

const DATA_TYPE_OF: Record<TargetField, 'STRING' | 'NUMBER'> = {
  policy_no: 'STRING',
  premium: 'NUMBER',
  company_amount: 'NUMBER',
  commission_year: 'NUMBER',
  product_code: 'STRING',
  insurance_type: 'STRING',
  pay_method: 'STRING',
  settle_month: 'STRING',
};

// Checked in this order: `COMM_YEAR` is a year before `COMM` is an amount.
const GUESSES: Array<[TargetField, RegExp]> = [
  ['policy_no', /polic|증권|계약\s*번호|cont(ract)?_?no/i],
  ['commission_year', /year|yr\b|연차|차년/i],
  ['settle_month', /month|정산\s*월|yyyymm/i],
  ['premium', /prem|보험료/i],
  ['company_amount', /comm|수수료|amount|amt|금액/i],
  ['product_code', /prod|상품/i],
  ['insurance_type', /ins\w*_?type|보종|insurance/i],
  ['pay_method', /pay|납입/i],
];

/** A first guess per header (undefined = not mapped); each target field at most once, leftmost column first. */
export function guessTargets(header: readonly string[]): Array<TargetField | undefined> {
  const used = new Set<TargetField>();
  return header.map((name) => {
    const hit = GUESSES.find(([target, re]) => !used.has(target) && re.test(name));
    if (!hit) return undefined;
    used.add(hit[0]);
    return hit[0];
  });
}

export interface ColumnChoice {
  target?: TargetField | undefined;
  transformRule?: string | undefined;
  isRequired?: boolean | undefined;
}

export interface WantedMapping {
  targetField: TargetField;
  sourceField: string;
  sourceColIndex: number | null;
  dataType: 'STRING' | 'NUMBER';
  transformRule: string | null;
  isRequired: boolean;
  sortOrder: number;
}

export interface SavedMapping {
  mappingId: number;
  targetField: string;
  sourceField: string;
  sourceColIndex: number | null;
  dataType: string | null;
  transformRule: string | null;
  isRequired: boolean | null;
}

/** What the columns ask for; `problems` says what must be fixed first (no policy column, a field twice). */
export function wantedMappings(
  header: readonly string[],
  choices: readonly ColumnChoice[],
  pinColumns: boolean,
): { wanted: WantedMapping[]; problems: string[] } {
  const wanted: WantedMapping[] = [];
  const problems: string[] = [];
  const seen = new Map<TargetField, string>();
  header.forEach((sourceField, i) => {
    const choice = choices[i];
    if (!choice?.target) return;
    const first = seen.get(choice.target);
    if (first !== undefined) {
      problems.push(`${choice.target} is mapped twice (${first}, ${sourceField})`);
      return;
    }
    seen.set(choice.target, sourceField);
    wanted.push({
      targetField: choice.target,
      sourceField,
      sourceColIndex: pinColumns ? i : null,
      dataType: DATA_TYPE_OF[choice.target],
      transformRule: choice.transformRule?.trim() ? choice.transformRule.trim() : null,
      isRequired: choice.isRequired ?? choice.target === REQUIRED_TARGET,
      sortOrder: wanted.length + 1,
    });
  });
  if (!seen.has(REQUIRED_TARGET)) problems.unshift(`no column is mapped to ${REQUIRED_TARGET}`);
  return { wanted, problems };
}

/** New versions for new or changed fields, ends for fields mapped now and not wanted any more. */
export function planChanges(saved: readonly SavedMapping[], wanted: readonly WantedMapping[]): { save: WantedMapping[]; end: SavedMapping[]; same: WantedMapping[] } {
  const byTarget = new Map(saved.map((m) => [m.targetField, m]));
  const save: WantedMapping[] = [];
  const same: WantedMapping[] = [];
  for (const w of wanted) {
    const s = byTarget.get(w.targetField);
    const unchanged =
      s !== undefined &&
      s.sourceField === w.sourceField &&
      (s.sourceColIndex ?? null) === w.sourceColIndex &&
      (s.transformRule ?? null) === w.transformRule &&
      Boolean(s.isRequired) === w.isRequired &&
      (s.dataType ?? 'STRING') === w.dataType;
    (unchanged ? same : save).push(w);
  }
  const wantedTargets = new Set(wanted.map((w) => w.targetField as string));
  const end = saved.filter((s) => !wantedTargets.has(s.targetField));
  return { save, end, same };
}

/** The spreadsheet letter of a 0-based column (0 -> A, 26 -> AA). */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    out = String.fromCharCode(65 + rest) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}
