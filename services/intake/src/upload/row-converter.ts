import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database, UploadTargetType } from '@csp/db';
import type { SheetRow } from '../parsing/tabular.js';
import { resolveLookup, type LookupName } from './lookups.js';
import type { CompiledRule } from './template-rules.js';
import type { ImportTarget } from './targets/index.js';
import { coerce, type CellValue } from './value-types.js';

/** A template column ready to apply. */
export interface ColumnPlan {
  sourceColumn: string;
  index: number;
  sourceHeader: string | null;
  targetField: string;
  targetType: UploadTargetType;
  isRequired: boolean;
  defaultValue: string | null;
  ruleArgs: string | null;
  rule: CompiledRule;
}

/** Why a row was rejected (the import result, the history sample and the error file carry it). */
export interface RowError {
  rowNumber: number;
  field: string | null;
  value: string | null;
  message: string;
}

export type Converted =
  | { ok: true; row: SheetRow; data: unknown; values: Record<string, CellValue> }
  | { ok: false; row: SheetRow; error: RowError };

interface Pending {
  field: string;
  lookup: LookupName;
  key: string;
  type: UploadTargetType;
}

type Stage1 =
  | { ok: true; row: SheetRow; values: Record<string, CellValue>; pending: Pending[] }
  | { ok: false; row: SheetRow; error: RowError };

export interface CodeMapper {
  (codeType: string, value: string): string | undefined;
}

function truncate(value: string | null): string | null {
  return value !== null && value.length > 200 ? `${value.slice(0, 197)}...` : value;
}

/**
 * Turns sheet rows into target rows: per column the cell, its rule (or default), the required check
 * and the target type; then the LOOKUP values of the whole batch (one query per lookup); then the
 * target table's own row schema.
 */
export class RowConverter {
  constructor(
    private readonly columns: readonly ColumnPlan[],
    private readonly target: ImportTarget<unknown, unknown>,
    private readonly codeMap: CodeMapper,
    private readonly db: Kysely<Database>,
    private readonly companyCode: string | null,
  ) {
    this.ruleContext = { cells: [], codeMap };
    this.schema = target.rowSchema({ companyCode });
  }

  private readonly schema: z.ZodType<unknown>;

  /** Reused for every row (no per-row allocation on the hot path). */
  private readonly ruleContext: { cells: readonly string[]; codeMap: CodeMapper };

  private reject(row: SheetRow, col: ColumnPlan, message: string, value: string | null): Stage1 {
    return {
      ok: false,
      row,
      error: {
        rowNumber: row.rowNumber,
        field: col.targetField,
        value: truncate(value),
        message: `${col.targetField}: ${message}`,
      },
    };
  }

  private stage1(row: SheetRow): Stage1 {
    const values: Record<string, CellValue> = {};
    const pending: Pending[] = [];
    const ctx = this.ruleContext;
    ctx.cells = row.cells;
    for (const col of this.columns) {
      const cell = row.cells[col.index] ?? '';
      const result = col.rule.apply(cell, col.defaultValue, ctx);
      if (!result.ok) return this.reject(row, col, result.message, cell);
      if ('lookup' in result) {
        if (result.key === '') {
          if (col.isRequired) return this.reject(row, col, 'is required', cell);
          values[col.targetField] = null;
        } else
          pending.push({
            field: col.targetField,
            lookup: result.lookup,
            key: result.key,
            type: col.targetType,
          });
        continue;
      }
      const value = result.value;
      if (value === null || value.trim() === '') {
        if (col.isRequired) return this.reject(row, col, 'is required', cell);
        values[col.targetField] = null;
        continue;
      }
      const typed = coerce(value, col.targetType);
      if (!typed.ok) return this.reject(row, col, typed.message, value);
      values[col.targetField] = typed.value;
    }
    return { ok: true, row, values, pending };
  }

  /** Converts one batch (LOOKUPs resolved together). */
  async convert(rows: readonly SheetRow[]): Promise<Converted[]> {
    const first = rows.map((r) => this.stage1(r));
    const byLookup = new Map<LookupName, string[]>();
    for (const s of first) {
      if (!s.ok) continue;
      for (const p of s.pending) {
        let keys = byLookup.get(p.lookup);
        if (!keys) byLookup.set(p.lookup, (keys = []));
        keys.push(p.key);
      }
    }
    const answers = new Map<LookupName, Awaited<ReturnType<typeof resolveLookup>>>();
    for (const [name, keys] of byLookup)
      answers.set(name, await resolveLookup(this.db, name, keys, this.companyCode));

    return first.map((s): Converted => {
      if (!s.ok) return s;
      for (const p of s.pending) {
        const answer = answers.get(p.lookup)!.get(p.key)!;
        const reject = (message: string): Converted => ({
          ok: false,
          row: s.row,
          error: {
            rowNumber: s.row.rowNumber,
            field: p.field,
            value: truncate(p.key),
            message: `${p.field}: ${message}`,
          },
        });
        if (!answer.ok) return reject(answer.message);
        const typed = coerce(answer.value, p.type);
        if (!typed.ok) return reject(typed.message);
        s.values[p.field] = typed.value;
      }
      const parsed = this.schema.safeParse(s.values);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = issue.path.length ? String(issue.path[0]) : null;
        const raw = field === null ? null : s.values[field];
        return {
          ok: false,
          row: s.row,
          error: {
            rowNumber: s.row.rowNumber,
            field,
            value: truncate(raw === null || raw === undefined ? null : String(raw)),
            message: field === null ? issue.message : `${field}: ${issue.message}`,
          },
        };
      }
      return { ok: true, row: s.row, data: parsed.data, values: s.values };
    });
  }
}
