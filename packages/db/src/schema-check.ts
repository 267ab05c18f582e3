import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type pg from 'pg';
import ts from 'typescript';

/**
 * Compares the hand-kept Kysely `Database` interface (src/schema) with a migrated database:
 * tables, columns, nullability, the JS type pg hands back, and CHECK (... IN (...)) value lists.
 * Run as a script: `pnpm --filter @csp/db schema:check` (DATABASE_URL, else a fresh test database).
 */

/** What a select type (or a pg column, through the parsers of pool.ts) is in JS. */
export type TsCategory =
  | 'string'
  | 'number'
  | 'bigint'
  | 'boolean'
  | 'Date'
  | 'unknown'
  | 'object'
  | 'array'
  | 'undefined'
  | 'never'
  | 'other';

/** A pg column's expected category; 'json' accepts unknown, object or array types. */
export type PgCategory = 'string' | 'number' | 'boolean' | 'Date' | 'json' | 'array';

/**
 * pg udt_name -> JS value through pool.ts: int8 is parsed as a number (20), DATE stays a 'YYYY-MM-DD' string (1082),
 * numeric keeps pg's default (string), timestamps pg's default (Date). test/schema-check.test.ts proves each entry
 * against the values a pool from createPool really returns.
 */
export const PG_TYPE_CATEGORIES: Readonly<Record<string, PgCategory>> = {
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  oid: 'number',
  numeric: 'string',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  name: 'string',
  uuid: 'string',
  bool: 'boolean',
  date: 'string',
  timestamp: 'Date',
  timestamptz: 'Date',
  json: 'json',
  jsonb: 'json',
  // int8[] read as numbers, like int8 (pool.ts)
  _int8: 'array',
};

/**
 * Tables in the database that deliberately have no `Database` type. Each entry says why.
 */
export const IGNORED_TABLES: Readonly<Record<string, string>> = {
  schema_migration: 'bookkeeping of the migrator (migrate.ts), read and written with raw SQL only',
};

/**
 * Disagreements kept on purpose because fixing the type would break a service's typecheck. Key
 * `<kind> <table>.<column>`; value: why, and what unblocks it. test/schema-check.test.ts fails once an entry no
 * longer disagrees, so the list cannot rot.
 */
export const ACCEPTED_MISMATCHES: Readonly<Record<string, string>> = {
  'values data_domain.category':
    'CHECKed IN DOMAIN_CATEGORIES but typed string: auth-platform src/data-domains/repository.ts filters ' +
    '(DomainFilters.domainCategory) and writes (DomainWrite.category) with a plain string, which a narrowed ' +
    'column type rejects. Type those as DomainCategory, then make the column DomainCategory and drop this entry.',
};

export function mismatchKey(m: Pick<SchemaMismatch, 'kind' | 'table' | 'column'>): string {
  return m.column === undefined ? `${m.kind} ${m.table}` : `${m.kind} ${m.table}.${m.column}`;
}

export interface TypeColumn {
  nullable: boolean;
  categories: TsCategory[];
  /** Sorted values when the select type (without null) is a union of string literals. */
  literals?: string[];
  /** The select type as the checker prints it, for messages. */
  text: string;
}

export interface DbColumn {
  nullable: boolean;
  udtName: string;
  /** Sorted values of a single-column CHECK (col IN (...)); undefined without one. */
  checkValues?: string[];
}

export interface DbTable {
  kind: 'table' | 'view';
  columns: Map<string, DbColumn>;
}

export type TypeSchema = Map<string, Map<string, TypeColumn>>;
export type DbSchema = Map<string, DbTable>;

export type SchemaMismatchKind =
  | 'table-not-in-types'
  | 'table-not-in-db'
  | 'column-not-in-types'
  | 'column-not-in-db'
  | 'nullability'
  | 'type'
  | 'values';

export interface SchemaMismatch {
  kind: SchemaMismatchKind;
  table: string;
  column?: string;
  message: string;
}

export interface TypeSchemaOptions {
  /** The file exporting the interface; default src/schema/index.ts. */
  entry?: string;
  /** default 'Database' */
  typeName?: string;
  /**
   * In-memory files (absolute path -> text) added to the program; a path of an existing file replaces it.
   * Lets a test declare an extra interface or augment a table without touching src/.
   */
  sources?: Readonly<Record<string, string>>;
}

const HERE = dirname(fileURLToPath(import.meta.url));

/** src/schema/index.ts; from dist/ the emitted index.d.ts. */
export const DEFAULT_SCHEMA_ENTRY = existsSync(resolve(HERE, 'schema/index.ts'))
  ? resolve(HERE, 'schema/index.ts')
  : resolve(HERE, 'schema/index.d.ts');

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['source'],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};

/** Reads every table of the interface with each column's select type (ColumnType<S, I, U> / Generated<S> -> S). */
export function readTypeSchema(options: TypeSchemaOptions = {}): TypeSchema {
  const entry = resolve(options.entry ?? DEFAULT_SCHEMA_ENTRY);
  const typeName = options.typeName ?? 'Database';
  const sources = new Map(Object.entries(options.sources ?? {}).map(([p, text]) => [resolve(p), text]));

  const host = ts.createCompilerHost(COMPILER_OPTIONS, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => sources.has(resolve(file)) || fileExists.call(host, file);
  host.readFile = (file) => sources.get(resolve(file)) ?? readFile.call(host, file);
  host.getSourceFile = (file, languageVersion, onError, shouldCreate) => {
    const text = sources.get(resolve(file));
    return text === undefined
      ? getSourceFile.call(host, file, languageVersion, onError, shouldCreate)
      : ts.createSourceFile(file, text, languageVersion, true);
  };

  const program = ts.createProgram({
    rootNames: [entry, ...sources.keys()],
    options: COMPILER_OPTIONS,
    host,
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || !d.file.isDeclarationFile);
  if (problems.length > 0) {
    throw new Error(
      `schema types do not compile:\n${ts.formatDiagnostics(problems, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => process.cwd(),
        getNewLine: () => '\n',
      })}`,
    );
  }

  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${entry} is not a module`);
  const symbol = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === typeName);
  if (!symbol) throw new Error(`${entry} exports no ${typeName}`);

  const schema: TypeSchema = new Map();
  for (const table of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
    const columns = new Map<string, TypeColumn>();
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      columns.set(column.name, describeColumn(checker, checker.getTypeOfSymbol(column)));
    }
    schema.set(table.name, columns);
  }
  return schema;
}

function describeColumn(checker: ts.TypeChecker, type: ts.Type): TypeColumn {
  const members: ts.Type[] = [];
  for (const member of unionMembers(type)) {
    const select = member.getProperty('__select__');
    if (select) members.push(...unionMembers(checker.getTypeOfSymbol(select)));
    else members.push(member);
  }
  const nullable = members.some((m) => (m.flags & ts.TypeFlags.Null) !== 0);
  const rest = members.filter((m) => (m.flags & ts.TypeFlags.Null) === 0);
  const categories = [...new Set(rest.map((m) => categoryOf(checker, m)))].sort();
  const literals = rest.every((m) => m.isStringLiteral())
    ? rest.map((m) => (m as ts.StringLiteralType).value).sort()
    : undefined;
  const text = members.map((m) => checker.typeToString(m)).join(' | ');
  return { nullable, categories, ...(literals && literals.length > 0 ? { literals } : {}), text };
}

function unionMembers(type: ts.Type): ts.Type[] {
  return type.isUnion() ? type.types : [type];
}

function categoryOf(checker: ts.TypeChecker, type: ts.Type): TsCategory {
  const f = type.flags;
  if (f & ts.TypeFlags.StringLike) return 'string';
  if (f & ts.TypeFlags.NumberLike) return 'number';
  if (f & ts.TypeFlags.BigIntLike) return 'bigint';
  if (f & ts.TypeFlags.BooleanLike) return 'boolean';
  if (f & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return 'unknown';
  if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return 'undefined';
  if (f & ts.TypeFlags.Never) return 'never';
  if (f & ts.TypeFlags.Object) {
    if (checker.isArrayType(type) || checker.isTupleType(type)) return 'array';
    return type.getSymbol()?.name === 'Date' ? 'Date' : 'object';
  }
  return 'other';
}

/** Tables and views of the public schema (partitions left out), their columns and CHECK value lists. */
export async function readDbSchema(db: pg.Pool | pg.Client): Promise<DbSchema> {
  const { rows: columns } = await db.query<{
    table_name: string;
    table_type: string;
    column_name: string;
    is_nullable: string;
    udt_name: string;
  }>(
    `SELECT c.table_name, t.table_type, c.column_name, c.is_nullable, c.udt_name
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       JOIN pg_class k ON k.relname = c.table_name AND k.relnamespace = 'public'::regnamespace
      WHERE c.table_schema = 'public' AND t.table_type IN ('BASE TABLE', 'VIEW') AND NOT k.relispartition
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const schema: DbSchema = new Map();
  for (const row of columns) {
    let table = schema.get(row.table_name);
    if (!table) {
      table = { kind: row.table_type === 'VIEW' ? 'view' : 'table', columns: new Map() };
      schema.set(row.table_name, table);
    }
    table.columns.set(row.column_name, { nullable: row.is_nullable === 'YES', udtName: row.udt_name });
  }
  for (const check of await readCheckValueLists(db)) {
    const column = schema.get(check.table)?.columns.get(check.column);
    if (column) column.checkValues = [...check.values].sort();
  }
  return schema;
}

export interface CheckValueList {
  table: string;
  column: string;
  constraint: string;
  /** In the order the CHECK lists them. */
  values: string[];
}

/** Every single-column `CHECK (col IN ('A', 'B', ...))` of the public schema. */
export async function readCheckValueLists(db: pg.Pool | pg.Client): Promise<CheckValueList[]> {
  const { rows } = await db.query<{ table_name: string; column_name: string; conname: string; def: string }>(
    `SELECT k.relname AS table_name, a.attname AS column_name, con.conname, pg_get_constraintdef(con.oid) AS def
       FROM pg_constraint con
       JOIN pg_class k ON k.oid = con.conrelid
       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
      WHERE con.contype = 'c' AND k.relnamespace = 'public'::regnamespace AND cardinality(con.conkey) = 1
        AND NOT k.relispartition
      ORDER BY k.relname, a.attname, con.conname`,
  );
  const lists: CheckValueList[] = [];
  for (const row of rows) {
    const values = parseInList(row.def, row.column_name);
    if (values)
      lists.push({ table: row.table_name, column: row.column_name, constraint: row.conname, values });
  }
  return lists;
}

/**
 * pg prints `col IN ('A', 'B')` as `CHECK (((col)::text = ANY ((ARRAY['A'::character varying, ...])::text[])))`
 * (varchar) or `CHECK ((col = ANY (ARRAY['A'::bpchar, ...])))` (char). Anything else is not a value list.
 */
const LITERAL = String.raw`'((?:[^']|'')*)'(?:::[a-z ]+)?`;

export function parseInList(def: string, column: string): string[] | undefined {
  const pattern = new RegExp(
    String.raw`^CHECK \(+"?${column}"?\)?(?:::[a-z ]+)? = ANY \(+ARRAY\[((?:${LITERAL}(?:, )?)+)\](?:\)::[a-z ]+\[\])?\)+$`,
  );
  const match = pattern.exec(def);
  if (!match) return undefined;
  return [...match[1]!.matchAll(new RegExp(LITERAL, 'g'))].map((m) => m[1]!.replace(/''/g, "'"));
}

export interface CompareOptions {
  /** Database tables without a type; default IGNORED_TABLES. */
  ignoreTables?: Readonly<Record<string, string>> | readonly string[];
  /** Disagreements left out of the result (keys as mismatchKey); default ACCEPTED_MISMATCHES. */
  accept?: Readonly<Record<string, string>>;
}

/** Every disagreement between the types and the database, sorted by table and column. */
export function compareSchemas(
  types: TypeSchema,
  db: DbSchema,
  options: CompareOptions = {},
): SchemaMismatch[] {
  const ignoreOption = options.ignoreTables ?? IGNORED_TABLES;
  const ignored = new Set(Array.isArray(ignoreOption) ? ignoreOption : Object.keys(ignoreOption));
  const out: SchemaMismatch[] = [];

  for (const [name, table] of db) {
    if (ignored.has(name)) continue;
    const typeColumns = types.get(name);
    if (!typeColumns) {
      out.push({
        kind: 'table-not-in-types',
        table: name,
        message: `${table.kind} ${name} has no property in the Database interface`,
      });
      continue;
    }
    for (const [columnName, column] of table.columns) {
      const typeColumn = typeColumns.get(columnName);
      if (!typeColumn) {
        out.push({
          kind: 'column-not-in-types',
          table: name,
          column: columnName,
          message: `column ${name}.${columnName} (${column.udtName}) has no property in the table's interface`,
        });
        continue;
      }
      out.push(...compareColumn(name, columnName, table.kind, column, typeColumn));
    }
    for (const columnName of typeColumns.keys()) {
      if (!table.columns.has(columnName)) {
        out.push({
          kind: 'column-not-in-db',
          table: name,
          column: columnName,
          message: `property ${name}.${columnName} has no column in the database`,
        });
      }
    }
  }
  for (const name of types.keys()) {
    if (!db.has(name)) {
      out.push({
        kind: 'table-not-in-db',
        table: name,
        message: `Database property ${name} has no table or view in the database`,
      });
    }
  }
  const accepted = options.accept ?? ACCEPTED_MISMATCHES;
  return out
    .filter((m) => !(mismatchKey(m) in accepted))
    .sort((a, b) => a.table.localeCompare(b.table) || (a.column ?? '').localeCompare(b.column ?? ''));
}

function compareColumn(
  table: string,
  name: string,
  kind: DbTable['kind'],
  column: DbColumn,
  type: TypeColumn,
): SchemaMismatch[] {
  const out: SchemaMismatch[] = [];
  const where = `${table}.${name}`;
  // A view column's nullability is not known to information_schema (always YES), so only tables are compared.
  if (kind === 'table' && column.nullable !== type.nullable) {
    out.push({
      kind: 'nullability',
      table,
      column: name,
      message: column.nullable
        ? `${where} is nullable in the database but the type (${type.text}) has no null`
        : `${where} is NOT NULL in the database but the type (${type.text}) allows null`,
    });
  }
  const expected = PG_TYPE_CATEGORIES[column.udtName];
  if (!expected) {
    out.push({
      kind: 'type',
      table,
      column: name,
      message: `${where}: pg type ${column.udtName} has no entry in PG_TYPE_CATEGORIES`,
    });
  } else if (!categoryFits(expected, type.categories)) {
    out.push({
      kind: 'type',
      table,
      column: name,
      message: `${where} is ${column.udtName} (read as ${expected}) but the type selects ${type.text}`,
    });
  }
  if (column.checkValues) {
    if (!type.literals) {
      out.push({
        kind: 'values',
        table,
        column: name,
        message: `${where} is CHECKed IN (${column.checkValues.join(', ')}) but typed ${type.text}`,
      });
    } else if (type.literals.join() !== column.checkValues.join()) {
      out.push({
        kind: 'values',
        table,
        column: name,
        message: `${where} is CHECKed IN (${column.checkValues.join(', ')}) but typed ${type.literals.join(' | ')}`,
      });
    }
  }
  return out;
}

function categoryFits(expected: PgCategory, actual: TsCategory[]): boolean {
  if (expected === 'array') return actual.length === 1 && actual[0] === 'array';
  if (expected === 'json') {
    return actual.length > 0 && actual.every((c) => c === 'unknown' || c === 'object' || c === 'array');
  }
  return actual.length === 1 && actual[0] === expected;
}

/** Reads both sides and compares them. */
export async function checkSchema(
  db: pg.Pool | pg.Client,
  options: TypeSchemaOptions & CompareOptions = {},
): Promise<SchemaMismatch[]> {
  return compareSchemas(readTypeSchema(options), await readDbSchema(db), options);
}

async function main(): Promise<number> {
  const url = process.env.DATABASE_URL;
  let mismatches: SchemaMismatch[];
  if (url) {
    const { createPool } = await import('./pool.js');
    const pool = createPool({ connectionString: url, max: 1, applicationName: 'csp-schema-check' });
    try {
      mismatches = await checkSchema(pool);
    } finally {
      await pool.end();
    }
  } else {
    const { createTestDatabase } = await import('./testing.js');
    const scratch = await createTestDatabase();
    try {
      mismatches = await checkSchema(scratch.pool);
    } finally {
      await scratch.drop();
    }
  }
  for (const m of mismatches) console.log(`${m.kind.padEnd(19)} ${m.message}`);
  for (const [key, why] of Object.entries(ACCEPTED_MISMATCHES))
    console.log(`accepted            ${key}: ${why}`);
  console.log(
    mismatches.length === 0
      ? 'schema check: the Database types agree with the migrated schema'
      : `schema check: ${mismatches.length} disagreement(s)`,
  );
  return mismatches.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(2);
    },
  );
}
