import type { FieldMeta, ResourceMeta } from '../resources/meta.js';

const HIDDEN_KINDS = new Set(['json', 'version', 'createdBy', 'updatedBy']);
const HIDDEN_KEYS = new Set(['createdBy', 'updatedBy', 'version']);
/** Columns of a generic list besides its amounts. */
export const MAX_COLUMNS = 12;

/**
 * The columns of a resource's list, in the field table's order: the first fields (the status field always
 * among them) and every amount after them. Amounts are what a list is read for, and a row holding the parts
 * of a total (KPI sums, a settlement's gross, tax and net) shows all of them, so that it visibly adds up.
 */
export function listColumns(resource: Pick<ResourceMeta, 'fields' | 'statusField'>): FieldMeta[] {
  // A name twin (a code's name, a reference's joined name) is drawn by its field: one column, not two.
  const shown = resource.fields.filter(
    (f) => !HIDDEN_KINDS.has(f.kind) && !HIDDEN_KEYS.has(f.key) && !f.twinOf && !f.detailOnly,
  );
  const status = shown.find((f) => f.key === (resource.statusField ?? 'status'));
  const first = shown.slice(0, MAX_COLUMNS);
  if (status && !first.includes(status)) first.splice(MAX_COLUMNS - 1, 1, status);
  const kept = new Set(first);
  return shown.filter((f) => kept.has(f) || (f.display ?? f.kind) === 'money');
}
