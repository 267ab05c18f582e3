import type { Kysely } from 'kysely';
import type { Database } from '@csp/db';

/**
 * LOOKUP rule targets: a cell holds a business key, the rule puts the id (or code) it names. A
 * fixed list, so a template can never name arbitrary SQL.
 */
export const LOOKUP_NAMES = [
  'AGENT_BY_LICENSE',
  'ORG_BY_NAME',
  'GRADE_BY_CODE',
  'GRADE_BY_NAME',
  'PRODUCT_BY_CODE',
  'CONTRACT_BY_POLICY',
  'COMPANY_BY_NAME',
] as const;
export type LookupName = (typeof LOOKUP_NAMES)[number];

export function isLookupName(name: string): name is LookupName {
  return (LOOKUP_NAMES as readonly string[]).includes(name);
}

export type LookupAnswer = { ok: true; value: string } | { ok: false; message: string };

interface KeyedRow {
  k: string;
  v: string | number;
}

async function rowsOf(
  db: Kysely<Database>,
  name: LookupName,
  keys: string[],
  companyCode: string | null,
): Promise<KeyedRow[]> {
  switch (name) {
    case 'AGENT_BY_LICENSE':
      return db
        .selectFrom('agent')
        .select(['license_no as k', 'agent_id as v'])
        .where('license_no', 'in', keys)
        .execute() as Promise<KeyedRow[]>;
    case 'ORG_BY_NAME':
      return db
        .selectFrom('organization')
        .select(['org_name as k', 'org_id as v'])
        .where('org_name', 'in', keys)
        .where('is_active', '=', true)
        .execute();
    case 'GRADE_BY_CODE':
      return db
        .selectFrom('grade')
        .select(['grade_code as k', 'grade_id as v'])
        .where('grade_code', 'in', keys)
        .execute();
    case 'GRADE_BY_NAME':
      return db
        .selectFrom('grade')
        .select(['grade_name as k', 'grade_id as v'])
        .where('grade_name', 'in', keys)
        .execute();
    case 'PRODUCT_BY_CODE':
      return db
        .selectFrom('product as p')
        .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
        .select(['p.product_code as k', 'p.product_id as v'])
        .where('p.product_code', 'in', keys)
        .$if(companyCode !== null, (qb) => qb.where('ic.company_code', '=', companyCode!))
        .execute();
    case 'CONTRACT_BY_POLICY':
      return db
        .selectFrom('contract')
        .select(['policy_no as k', 'contract_id as v'])
        .where('policy_no', 'in', keys)
        .execute();
    case 'COMPANY_BY_NAME':
      return db
        .selectFrom('insurance_company')
        .select(['company_name as k', 'company_code as v'])
        .where('company_name', 'in', keys)
        .execute();
  }
}

/** Answers every distinct key of one lookup with one query; ambiguous keys are errors. */
export async function resolveLookup(
  db: Kysely<Database>,
  name: LookupName,
  keys: readonly string[],
  companyCode: string | null,
): Promise<Map<string, LookupAnswer>> {
  const distinct = [...new Set(keys.filter((k) => k !== ''))];
  const answers = new Map<string, LookupAnswer>();
  if (distinct.length === 0) return answers;
  const found = new Map<string, Set<string>>();
  for (const row of await rowsOf(db, name, distinct, companyCode)) {
    let set = found.get(row.k);
    if (!set) found.set(row.k, (set = new Set()));
    set.add(String(row.v));
  }
  for (const key of distinct) {
    const values = found.get(key);
    if (!values) answers.set(key, { ok: false, message: `${name}: nothing found for '${key}'` });
    else if (values.size > 1)
      answers.set(key, { ok: false, message: `${name}: '${key}' is ambiguous (${values.size} matches)` });
    else answers.set(key, { ok: true, value: [...values][0]! });
  }
  return answers;
}
