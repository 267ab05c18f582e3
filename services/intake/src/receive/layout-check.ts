import { columnLetter } from '../parsing/columns.js';
import type { ActiveMapping } from '../mappings/mapping-lookup.js';

export interface LayoutProblems {
  missing: string[];
  moved: Array<{ column: string; expected: string; found: string }>;
  renamed: Array<{ position: string; expected: string; found: string }>;
}

export function hasProblems(p: LayoutProblems): boolean {
  return p.missing.length + p.moved.length + p.renamed.length > 0;
}

/**
 * Compares a file's header with the active field mappings: every mapped source field must be a
 * header; where the mapping pins the column (source_col_index) it must be there. A pinned position
 * holding another, unmapped header is reported as a rename of that column.
 */
export function checkLayout(header: readonly string[], mappings: readonly ActiveMapping[]): LayoutProblems {
  const problems: LayoutProblems = { missing: [], moved: [], renamed: [] };
  const positions = new Map<string, number>();
  header.forEach((h, i) => {
    if (!positions.has(h)) positions.set(h, i);
  });
  const mappedSources = new Set(mappings.map((m) => m.sourceField));
  const seen = new Set<string>();
  // in column order (pinned columns first), so messages read left to right
  const ordered = [...mappings].sort(
    (a, b) =>
      (a.sourceColIndex ?? Infinity) - (b.sourceColIndex ?? Infinity) ||
      a.sourceField.localeCompare(b.sourceField),
  );
  for (const m of ordered) {
    if (seen.has(m.sourceField)) continue;
    seen.add(m.sourceField);
    const at = positions.get(m.sourceField);
    if (at !== undefined) {
      if (m.sourceColIndex !== null && m.sourceColIndex !== at) {
        problems.moved.push({
          column: m.sourceField,
          expected: columnLetter(m.sourceColIndex),
          found: columnLetter(at),
        });
      }
      continue;
    }
    const pinned = m.sourceColIndex === null ? undefined : header[m.sourceColIndex];
    if (pinned !== undefined && pinned !== '' && !mappedSources.has(pinned)) {
      problems.renamed.push({
        position: columnLetter(m.sourceColIndex!),
        expected: m.sourceField,
        found: pinned,
      });
    } else {
      problems.missing.push(m.sourceField);
    }
  }
  return problems;
}

/** One sentence per problem, naming the columns. */
export function describeLayout(p: LayoutProblems): string {
  const parts = [
    ...p.renamed.map((r) => `column ${r.position} is '${r.found}', expected '${r.expected}' (renamed?)`),
    ...p.moved.map((m) => `column '${m.column}' moved from ${m.expected} to ${m.found}`),
    ...p.missing.map((name) => `column '${name}' is missing`),
  ];
  return parts.join('; ');
}
