import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { beforeTestDatabaseDrop } from '@csp/db/testing';
import { loadServiceConfig } from './config.js';
import { createFieldCipher, type FieldCipher } from './crypto.js';
import { columnOf, isStored } from './fields.js';
import { MASK_CHAR, resourcesOfProcess } from './write-only.js';

/**
 * The scan of issue 22 over what a whole test suite wrote: before each test database is dropped,
 * every masked or encrypted column is read once (one query per column) and every value holding the
 * mask character (decrypted where encrypted) is recorded in a report file; the suite's global
 * teardown (vitest-masked-scan.global.ts) fails the run on any. Columns: the masked/encrypted
 * fields of every field table registered in the process, the writers outside field tables
 * (`WRITE_ONLY_COLUMNS`) and the data dictionary's personal/banking columns.
 */

export interface ScanColumn {
  table: string;
  /** The row id named in a finding (the primary key; `ctid` when there is none). */
  idColumn: string;
  column: string;
  encrypted?: boolean;
}

/**
 * Written by workflows, imports and steps, not (only) by a field table's create/update: users
 * (create/update, invitations), agents (template imports, demo data), withdraw requests and payments
 * (the agent's bank account copied on request and on generate).
 */
export const WRITE_ONLY_COLUMNS: readonly ScanColumn[] = [
  { table: 'users', idColumn: 'user_id', column: 'phone' },
  { table: 'users', idColumn: 'user_id', column: 'email' },
  { table: 'agent', idColumn: 'agent_id', column: 'phone' },
  { table: 'agent', idColumn: 'agent_id', column: 'email' },
  { table: 'agent', idColumn: 'agent_id', column: 'resident_no', encrypted: true },
  { table: 'agent', idColumn: 'agent_id', column: 'account_no', encrypted: true },
  { table: 'withdraw_request', idColumn: 'withdraw_id', column: 'account_no', encrypted: true },
  { table: 'payment', idColumn: 'payment_id', column: 'account_no', encrypted: true },
];

/** Data-dictionary masking types whose values are never legitimately masked when stored (names are: carriers send them so). */
const DICTIONARY_MASKINGS = ['PHONE', 'EMAIL', 'RESIDENT_NO', 'ACCOUNT_NO'];

export interface MaskedFinding {
  database: string;
  table: string;
  column: string;
  id: string;
}

export interface DatabaseScan {
  database: string;
  /** `table.column`, sorted. */
  columns: string[];
  findings: MaskedFinding[];
}

/** The field tables' masked/encrypted columns registered in this process (any app, any service). */
function fieldTableColumns(): ScanColumn[] {
  const out: ScanColumn[] = [];
  for (const { resource } of resourcesOfProcess()) {
    for (const [key, field] of Object.entries(resource.declaration.fields)) {
      const s = field.spec;
      if (!(s.masked || s.encrypted) || !isStored(s)) continue;
      out.push({ table: resource.table, idColumn: resource.idColumn, column: columnOf(key, s), encrypted: Boolean(s.encrypted) });
    }
  }
  return out;
}

function ciphersOfProcess(extra: FieldCipher[]): FieldCipher[] {
  const seen = new Set<FieldCipher>();
  for (const { cipher } of resourcesOfProcess()) {
    const c = cipher();
    if (c) seen.add(c);
  }
  for (const c of extra) seen.add(c);
  return [...seen];
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Scans one database: the columns of `columns` that exist in it plus the dictionary's, one query each.
 * A value is a finding when it contains `*` after decryption (with the first cipher that decrypts it),
 * or as stored when it does not decrypt.
 */
export async function scanDatabase(options: {
  url: string;
  database: string;
  columns?: readonly ScanColumn[];
  ciphers: FieldCipher[];
}): Promise<DatabaseScan> {
  const client = new pg.Client({ connectionString: options.url, application_name: 'csp-masked-scan' });
  await client.connect();
  try {
    const targets = new Map<string, ScanColumn>();
    for (const c of options.columns ?? []) {
      const key = `${c.table}.${c.column}`;
      targets.set(key, { ...c, encrypted: Boolean(c.encrypted || targets.get(key)?.encrypted) });
    }
    // Only what this database has (a resource of another test's schema, a table not migrated here).
    const { rows: present } = await client.query<{ t: string; c: string; pk: string | null; masking: string | null; enc: string | null; dict: boolean }>(
      `SELECT col.table_name AS t, col.column_name AS c,
              (SELECT min(k.column_name) FROM information_schema.key_column_usage k
                 JOIN information_schema.table_constraints tc ON tc.constraint_name = k.constraint_name AND tc.table_schema = k.table_schema
                WHERE tc.constraint_type = 'PRIMARY KEY' AND k.table_schema = 'public' AND k.table_name = col.table_name
               HAVING count(*) = 1) AS pk,
              dom.masking_type AS masking, dom.encrypted AS enc, dd.table_name IS NOT NULL AS dict
         FROM information_schema.columns col
         LEFT JOIN data_dictionary dd ON dd.table_name = col.table_name AND dd.column_name = col.column_name
         LEFT JOIN data_domain dom ON dom.domain_code = dd.domain_code
        WHERE col.table_schema = 'public'
          AND ((col.table_name || '.' || col.column_name) = ANY($1::text[])
               OR dom.encrypted = 'Y' OR dom.masking_type = ANY($2::text[]))`,
      [[...targets.keys()], DICTIONARY_MASKINGS],
    );
    const exists = new Set(present.map((r) => `${r.t}.${r.c}`));
    for (const key of [...targets.keys()]) if (!exists.has(key)) targets.delete(key);
    for (const r of present) {
      const key = `${r.t}.${r.c}`;
      if (!r.dict || targets.has(key)) continue;
      targets.set(key, { table: r.t, idColumn: r.pk ?? 'ctid', column: r.c, encrypted: r.enc === 'Y' });
    }

    const findings: MaskedFinding[] = [];
    for (const t of targets.values()) {
      // Plain columns: only the hits come back; encrypted ones are read whole (decrypted here).
      const where = t.encrypted ? `${ident(t.column)} IS NOT NULL` : `strpos(${ident(t.column)}::text, $1) > 0`;
      const { rows } = await client.query<{ id: unknown; v: string }>(
        `SELECT ${ident(t.idColumn)}::text AS id, ${ident(t.column)}::text AS v FROM ${ident(t.table)} WHERE ${where}`,
        t.encrypted ? [] : [MASK_CHAR],
      );
      for (const row of rows) {
        if (holdsMask(row.v, t.encrypted ? options.ciphers : [])) findings.push({ database: options.database, table: t.table, column: t.column, id: String(row.id) });
      }
    }
    return { database: options.database, columns: [...targets.keys()].sort(), findings };
  } finally {
    await client.end();
  }
}

// A wrong key now and then decrypts to garbage with valid padding: only readable text counts as decrypted.
const READABLE = /^[^\p{Cc}\uFFFD]*$/u;

function holdsMask(stored: string, ciphers: FieldCipher[]): boolean {
  for (const cipher of ciphers) {
    let plain: string;
    try {
      plain = cipher.decrypt(stored);
    } catch {
      continue; // another key, or not a ciphertext
    }
    if (READABLE.test(plain)) return plain.includes(MASK_CHAR);
  }
  return stored.includes(MASK_CHAR);
}

// ---- suite wiring (vitest) -------------------------------------------------------------------

/** The key every test context encrypts with (re-exported by testing.ts). */
export const TEST_ENCRYPT_KEY = 'test-encrypt-key-0123456789abcde';

/**
 * Worker side: before each test database of this process is dropped, scan it and write the result
 * to `dir` (one JSON file per database). Never throws into the test: the teardown judges.
 */
export function installMaskedScan(dir: string): () => void {
  // besides the apps' own: the test key, and the key of data written without one (demo data: ENCRYPT_KEY or the dev default)
  const keys = new Set([TEST_ENCRYPT_KEY, loadServiceConfig('masked-scan', {}, { NODE_ENV: 'test', ENCRYPT_KEY: process.env.ENCRYPT_KEY }).ENCRYPT_KEY]);
  const extraCiphers = [...keys].map((k) => createFieldCipher(k));
  return beforeTestDatabaseDrop(async ({ name, url }) => {
    let scan: DatabaseScan | { database: string; error: string };
    try {
      scan = await scanDatabase({ url, database: name, columns: [...fieldTableColumns(), ...WRITE_ONLY_COLUMNS], ciphers: ciphersOfProcess(extraCiphers) });
    } catch (err) {
      scan = { database: name, error: err instanceof Error ? err.message : String(err) };
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(scan));
  });
}

export interface SuiteScanSummary {
  databases: number;
  /** Distinct `table.column` scanned over all databases. */
  columns: string[];
  findings: MaskedFinding[];
  /** Databases whose scan failed (a query error): judged as failures too. */
  errors: string[];
}

/** Main side: the reports the workers wrote to `dir`. */
export function readMaskedScanReports(dir: string): SuiteScanSummary {
  const summary: SuiteScanSummary = { databases: 0, columns: [], findings: [], errors: [] };
  const columns = new Set<string>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return summary;
  }
  for (const file of files) {
    const scan = JSON.parse(readFileSync(join(dir, file), 'utf8')) as DatabaseScan | { database: string; error: string };
    summary.databases += 1;
    if ('error' in scan) {
      summary.errors.push(`${scan.database}: ${scan.error}`);
      continue;
    }
    for (const c of scan.columns) columns.add(c);
    summary.findings.push(...scan.findings);
  }
  summary.columns = [...columns].sort();
  return summary;
}

/** The teardown's verdict: undefined when clean, else the failure text naming db/table/column/row id. */
export function maskedScanFailure(summary: SuiteScanSummary): string | undefined {
  if (!summary.findings.length && !summary.errors.length) return undefined;
  const lines = summary.findings.slice(0, 50).map((f) => `  ${f.database} ${f.table}.${f.column} row ${f.id}`);
  if (summary.findings.length > 50) lines.push(`  ... and ${summary.findings.length - 50} more`);
  for (const e of summary.errors) lines.push(`  scan failed: ${e}`);
  return `masked-column scan: ${summary.findings.length} stored value(s) contain the mask character '${MASK_CHAR}' ` +
    `(DECISIONS "Masked and encrypted fields are write-only")${summary.errors.length ? `, ${summary.errors.length} scan error(s)` : ''}:\n${lines.join('\n')}`;
}
