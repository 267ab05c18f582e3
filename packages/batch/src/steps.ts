import { SETTLE_MONTH_PATTERN, stepPayloadSchema, type StepPayloadSchema } from './payload.js';

/** The job name of the monthly settlement run (one REQUESTED/RUNNING run at a time per job name). */
export const SETTLEMENT_JOB_NAME = 'SETTLEMENT';

/**
 * Spec 1.3, in execution order, plus calcOtherCommission (issue 16: collection, renewal, reinstatement,
 * persistency and appointment, DECISIONS "Commission types beyond recruit, maintain and override") right
 * after calcMaintain: step_seq 6, the spec's steps 6-12 are 7-13 here.
 */
export const STEP_NAMES = [
  'receiveData',
  'transformData',
  'reconcile',
  'calcRecruit',
  'calcMaintain',
  'calcOtherCommission',
  'chargebackException',
  'calcOverride',
  'aggregate',
  'accountingEntryGenerate',
  'yearEndIncomeAggregate',
  'withholdingTaxQuarterly',
  'vatReportQuarterly',
] as const;

export type StepName = (typeof STEP_NAMES)[number];

/** Services that host batch-step workers (ARCHITECTURE.md, service ownership). */
export type StepService = 'intake' | 'ledger-settlement' | 'payment-tax';

/** When a step does work: every month, only in December, or only in the last month of a quarter. */
export type StepSchedule = 'MONTHLY' | 'YEAR_END' | 'QUARTER_END';

export interface StepSettings {
  /** BullMQ attempts (first try included). */
  attempts: number;
  /** First exponential backoff delay; attempt n waits backoffMs * 2^(n-1). */
  backoffMs: number;
  /** One attempt of a step (or of one chunk) is aborted and counts as failed after this long. */
  timeoutMs: number;
}

export interface StepCatalogEntry extends StepSettings {
  name: StepName;
  /** 1-based position in the run; stored as batch_job_log.step_seq. */
  seq: number;
  service: StepService;
  /** BullMQ queue name: `settlement.<step>`. */
  queueName: string;
  schedule: StepSchedule;
  payloadSchema: StepPayloadSchema;
}

const MINUTE = 60_000;

type EntrySpec = Pick<StepCatalogEntry, 'service' | 'schedule'> & Partial<StepSettings>;

const DEFAULT_SETTINGS: StepSettings = { attempts: 3, backoffMs: 5_000, timeoutMs: 30 * MINUTE };

// Chunked, heavy steps get a longer timeout per attempt (it applies to one chunk when split).
const SPECS: Record<StepName, EntrySpec> = {
  receiveData: { service: 'intake', schedule: 'MONTHLY' },
  transformData: { service: 'intake', schedule: 'MONTHLY', timeoutMs: 60 * MINUTE },
  reconcile: { service: 'intake', schedule: 'MONTHLY' },
  calcRecruit: { service: 'ledger-settlement', schedule: 'MONTHLY', timeoutMs: 60 * MINUTE },
  calcMaintain: { service: 'ledger-settlement', schedule: 'MONTHLY', timeoutMs: 60 * MINUTE },
  calcOtherCommission: { service: 'ledger-settlement', schedule: 'MONTHLY', timeoutMs: 60 * MINUTE },
  chargebackException: { service: 'ledger-settlement', schedule: 'MONTHLY' },
  calcOverride: { service: 'ledger-settlement', schedule: 'MONTHLY' },
  aggregate: { service: 'ledger-settlement', schedule: 'MONTHLY' },
  accountingEntryGenerate: { service: 'payment-tax', schedule: 'MONTHLY' },
  yearEndIncomeAggregate: { service: 'payment-tax', schedule: 'YEAR_END' },
  withholdingTaxQuarterly: { service: 'payment-tax', schedule: 'QUARTER_END' },
  vatReportQuarterly: { service: 'payment-tax', schedule: 'QUARTER_END' },
};

export const STEP_CATALOG: Readonly<Record<StepName, Readonly<StepCatalogEntry>>> = Object.freeze(
  Object.fromEntries(
    STEP_NAMES.map((name, index) => [
      name,
      Object.freeze({
        ...DEFAULT_SETTINGS,
        ...SPECS[name],
        name,
        seq: index + 1,
        queueName: `settlement.${name}`,
        payloadSchema: stepPayloadSchema,
      }),
    ]),
  ) as Record<StepName, StepCatalogEntry>,
);

export const FIRST_STEP: StepName = STEP_NAMES[0];

export function isStepName(value: string): value is StepName {
  return (STEP_NAMES as readonly string[]).includes(value);
}

export function stepSeq(step: StepName): number {
  return STEP_CATALOG[step].seq;
}

export function queueNameOf(step: StepName): string {
  return STEP_CATALOG[step].queueName;
}

/** The step after `step`, or undefined after the last one. */
export function nextStep(step: StepName): StepName | undefined {
  return STEP_NAMES[stepSeq(step)];
}

export function stepsOwnedBy(service: StepService): StepName[] {
  return STEP_NAMES.filter((name) => STEP_CATALOG[name].service === service);
}

function monthOf(settleMonth: string): number {
  if (!SETTLE_MONTH_PATTERN.test(settleMonth)) {
    throw new RangeError(`settleMonth must be YYYYMM, got '${settleMonth}'`);
  }
  return Number(settleMonth.slice(4, 6));
}

/** Whether the step does its work in this settle month (spec 1.3: steps 10-12 are not monthly). */
export function runsInMonth(step: StepName, settleMonth: string): boolean {
  const month = monthOf(settleMonth);
  switch (STEP_CATALOG[step].schedule) {
    case 'MONTHLY':
      return true;
    case 'YEAR_END':
      return month === 12;
    case 'QUARTER_END':
      return month % 3 === 0;
  }
}

/** The text written to batch_job_log.skip_reason when runsInMonth is false. */
export function skipReason(step: StepName): string {
  switch (STEP_CATALOG[step].schedule) {
    case 'MONTHLY':
      return 'skipped';
    case 'YEAR_END':
      return 'skipped: not the last month of the year';
    case 'QUARTER_END':
      return 'skipped: not the last month of a quarter';
  }
}

/**
 * Parses a step selection such as the BATCH_STEPS environment value ("calcMaintain,aggregate").
 * Empty or undefined -> undefined (no restriction). Unknown names throw, so a typo stops start-up.
 */
export function parseStepList(value: string | undefined): StepName[] | undefined {
  const names = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (names.length === 0) return undefined;
  const unknown = names.filter((n) => !isStepName(n));
  if (unknown.length > 0) {
    throw new Error(`Unknown batch step(s): ${unknown.join(', ')}. Known: ${STEP_NAMES.join(', ')}`);
  }
  return [...new Set(names)] as StepName[];
}

/** Per-step overrides of the catalog's retry/timeout settings (tests use short backoffs). */
export type StepSettingsOverrides = Partial<Record<StepName, Partial<StepSettings>>> & {
  /** Applied to every step before the per-step overrides. */
  all?: Partial<StepSettings>;
};

export function resolveSettings(step: StepName, overrides?: StepSettingsOverrides): StepSettings {
  const { attempts, backoffMs, timeoutMs } = STEP_CATALOG[step];
  return { attempts, backoffMs, timeoutMs, ...overrides?.all, ...overrides?.[step] };
}
