/**
 * What the simulation page decides without a server (pure, unit-tested): which status allows what,
 * progress and ETA, the sign and colour of a difference (decimal strings, never JS numbers), the body of
 * a rule change, the text of a rule row in a picker and the organization roll-up as a tree.
 */
import { formatMoney, formatRate } from '../../shared/format.js';
import type { FieldMeta, ResourceMeta } from '../../resources/meta.js';
import type { Bucket, ChangeAction, ChangeInput, Direction, OrgResult, SimulationRow, SimulationStatus } from './simulation-api.js';

type Row = Record<string, unknown>;

export const ACTIVE: readonly SimulationStatus[] = ['QUEUED', 'RUNNING'];
const CHANGEABLE: readonly SimulationStatus[] = ['DRAFT', 'DONE', 'FAILED'];

/** Polled every 1.5 s while the job is queued or running. */
export const isActive = (status: SimulationStatus): boolean => ACTIVE.includes(status);
/** Name, scope and changes may be replaced (results are discarded) and the simulation deleted. */
export const isChangeable = (status: SimulationStatus): boolean => CHANGEABLE.includes(status);
export const canRun = (status: SimulationStatus, changeCount: number): boolean => isChangeable(status) && changeCount > 0;
export const hasResults = (status: SimulationStatus): boolean => status === 'DONE' || status === 'ADOPTION_PENDING' || status === 'ADOPTED';
export const canAdopt = (status: SimulationStatus): boolean => status === 'DONE';

/** The tone of a status tag (STYLE: good | busy | warn | bad | plain). */
export function statusTone(status: SimulationStatus): string {
  switch (status) {
    case 'DONE':
    case 'ADOPTED':
      return 'good';
    case 'QUEUED':
    case 'RUNNING':
      return 'busy';
    case 'ADOPTION_PENDING':
      return 'warn';
    case 'FAILED':
      return 'bad';
    case 'DRAFT':
      return 'plain';
  }
}

/** Whole percent of the work done, 0..100. */
export function progressPercent(row: Pick<SimulationRow, 'processed' | 'total' | 'status'>): number {
  if (hasResults(row.status)) return 100;
  if (!row.total || row.total <= 0) return 0;
  return Math.min(100, Math.floor((row.processed * 100) / row.total));
}

/** Seconds left as minutes and seconds (rounded up to a whole second), or undefined when unknown. */
export function etaParts(seconds: number | null | undefined): { minutes: number; seconds: number } | undefined {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return undefined;
  const whole = Math.ceil(seconds);
  return { minutes: Math.floor(whole / 60), seconds: whole % 60 };
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Up, down or same by the sign of a decimal string. */
export function directionOf(diff: string | null | undefined): Direction {
  const m = diff == null ? null : DECIMAL.exec(diff.trim());
  if (!m) return 'same';
  const zero = /^0*$/.test(m[2]!) && /^0*$/.test(m[3] ?? '');
  if (zero) return 'same';
  return m[1] === '-' ? 'down' : 'up';
}

/** A difference with its sign: `+1,234.00`, `-50.00`, `0.00`. */
export function signedMoney(diff: string | null | undefined): string {
  if (diff == null || diff === '') return '-';
  const dir = directionOf(diff);
  const text = formatMoney(diff.trim().replace(/^-/, ''));
  return dir === 'up' ? `+${text}` : dir === 'down' ? `-${text}` : text;
}

/** A percent change with its sign (`+8.33%`), `-` when there was nothing before. */
export function signedPct(pct: string | null | undefined): string {
  if (pct == null || pct === '') return '-';
  const dir = directionOf(pct);
  const text = formatRate(pct.trim().replace(/^-/, ''));
  return dir === 'up' ? `+${text}` : dir === 'down' ? `-${text}` : text;
}

/** The class that colours a difference: gains green, losses red. */
export function diffClass(diff: string | null | undefined): string {
  return `sim-diff sim-${directionOf(diff)}`;
}

export type ScopeText = { kind: 'ALL' } | { kind: 'ORG'; name: string } | { kind: 'AGENTS'; count: number };

export function scopeOf(row: Pick<SimulationRow, 'scopeType' | 'scopeOrgId' | 'scopeOrgName' | 'scopeAgentIds'>): ScopeText {
  if (row.scopeType === 'ORG') return { kind: 'ORG', name: row.scopeOrgName ?? String(row.scopeOrgId ?? '') };
  if (row.scopeType === 'AGENTS') return { kind: 'AGENTS', count: row.scopeAgentIds.length };
  return { kind: 'ALL' };
}

/** One rule change as edited in the form. */
export interface ChangeDraft {
  ruleTable?: string;
  action?: ChangeAction;
  targetId?: number;
  values?: Row;
  endDate?: string;
}

/** Filled-in values only: the rule's own create schema applies its defaults to the rest. */
export function cleanValues(values: Row | undefined): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = value;
  }
  return out;
}

/** The body of a change: ADD the new row, REPLACE a row by a new one, END a row on a day. */
export function toChangeInput(draft: ChangeDraft): ChangeInput {
  const ruleTable = draft.ruleTable ?? '';
  const action = draft.action ?? 'ADD';
  if (action === 'END') return { ruleTable, action, ...(draft.targetId != null ? { targetId: draft.targetId } : {}), ...(draft.endDate ? { endDate: draft.endDate } : {}) };
  const values = cleanValues(draft.values);
  if (action === 'REPLACE') return { ruleTable, action, ...(draft.targetId != null ? { targetId: draft.targetId } : {}), values };
  return { ruleTable, action, values };
}

/** A saved change back in the form (the editor of an existing simulation). */
export function toDraft(change: ChangeInput): ChangeDraft {
  return {
    ruleTable: change.ruleTable,
    action: change.action,
    ...(change.targetId != null ? { targetId: change.targetId } : {}),
    ...(change.values ? { values: { ...change.values } } : {}),
    ...(change.endDate ? { endDate: change.endDate } : {}),
  };
}

/** The fields a rule row is told apart by in a picker: what a user saves, audit and ids aside. */
export function shownFields(resource: ResourceMeta): FieldMeta[] {
  const hidden = new Set(['id', 'version', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'json']);
  return resource.fields.filter((f) => f.save && !hidden.has(f.kind) && !f.masked && f.key !== 'effectiveFrom' && f.key !== 'effectiveTo');
}

function valueText(resource: ResourceMeta, field: FieldMeta, row: Row): string | undefined {
  const value = row[field.key];
  if (value === undefined || value === null || value === '') return undefined;
  // A reference's joined name, or a code's name (its twin field), reads better than the id or the code.
  const twin = field.ref?.displayField ?? resource.fields.find((t) => t.twinOf === field.key)?.key;
  const joined = twin ? row[twin] : undefined;
  if (joined != null && joined !== '') return String(joined);
  const kind = field.display ?? field.kind;
  if (kind === 'rate') return formatRate(String(value));
  if (kind === 'money') return formatMoney(String(value));
  if (typeof value === 'boolean') return undefined;
  return String(value);
}

/** A rule row in one line: its values (names for references) and its period `from ~ to`. */
export function ruleRowLabel(resource: ResourceMeta, row: Row, idKey: string): string {
  const parts = shownFields(resource).flatMap((f) => valueText(resource, f, row) ?? []);
  const from = row.effectiveFrom == null ? '' : String(row.effectiveFrom);
  const to = row.effectiveTo == null ? '' : String(row.effectiveTo);
  const period = from || to ? `${from} ~ ${to}` : '';
  return [`#${String(row[idKey])}`, ...parts, period].filter(Boolean).join(' · ');
}

/** The values a REPLACE starts from: the target row's saved fields, dated the day after it starts. */
export function replaceStart(resource: ResourceMeta, row: Row): Row {
  const out: Row = {};
  for (const f of resource.fields) {
    if (!f.save || f.readOnly || f.kind === 'id' || f.kind === 'version') continue;
    if (row[f.key] !== undefined && row[f.key] !== null) out[f.key] = row[f.key];
  }
  delete out.effectiveTo;
  return out;
}

export type OrgNode = OrgResult & { children?: OrgNode[] };

/** The rolled-up organizations as a tree; an org whose parent is not in the answer is a root. */
export function orgTree(rows: readonly OrgResult[]): OrgNode[] {
  const byId = new Map<number, OrgNode>(rows.map((r) => [r.orgId, { ...r }]));
  const roots: OrgNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId == null ? undefined : byId.get(node.parentId);
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** The category of a histogram bucket: `0` for the no-change bucket, else `from ~ to`. */
export function bucketLabel(bucket: Bucket): string {
  if (directionOf(bucket.from) === 'same' && directionOf(bucket.to) === 'same') return '0';
  return `${signedMoney(bucket.from)} ~ ${signedMoney(bucket.to)}`;
}

/** The server's sort (`-grossDiff`) from a table's sort, and back. */
export function serverSort(field: string | undefined, order: 'ASC' | 'DESC' | undefined): string | undefined {
  if (!field) return undefined;
  return order === 'ASC' ? field : `-${field}`;
}

/** The first day of a `YYYYMM` month (`2026-01-01`): where a proposed change starts to count. */
export function monthStart(month: string | null | undefined): string | undefined {
  const m = month ? /^(\d{4})-?(0[1-9]|1[0-2])$/.exec(month.trim()) : null;
  return m ? `${m[1]}-${m[2]}-01` : undefined;
}

/** The server names a change's fields `changes[0].values.payoutPct`; the form names them `changes.0.values.payoutPct`. */
export function formFieldPath(serverField: string): string {
  return serverField.replace(/\[(\d+)\]/g, '.$1');
}

/** The first day of the month after `today` (`YYYY-MM-DD`): the default date an adopted change starts. */
export function nextMonthStart(today: string): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}
