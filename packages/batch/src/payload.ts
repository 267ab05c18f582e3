import { z } from 'zod';

export const SETTLE_MONTH_PATTERN = /^\d{4}(0[1-9]|1[0-2])$/;

/** One chunk of a split step: an inclusive id range (for example agent ids from..to). */
export const chunkSchema = z
  .strictObject({
    chunkNo: z.number().int().min(1),
    from: z.number().int(),
    to: z.number().int(),
  })
  .refine((c) => c.from <= c.to, { message: 'chunk.from must be <= chunk.to', path: ['to'] });

/**
 * The data of every step job. Identifiers and the month only: no personal or bank data ever goes
 * into Redis. Unknown keys are rejected (strict), so nobody can smuggle extra data in.
 */
export const stepPayloadSchema = z.strictObject({
  runId: z.number().int().positive(),
  /** The run row's run_key (random uuid): jobs of another run row with the same id are not ours. */
  runKey: z.uuid(),
  /** The run's attempt (batch_job_log.run_attempt); jobs of an older attempt are ignored. */
  attempt: z.number().int().positive(),
  settleMonth: z.string().regex(SETTLE_MONTH_PATTERN, 'settleMonth must be YYYYMM'),
  companyCode: z.string().min(1).max(20).optional(),
  /** The request id of the HTTP call that started the run, for log correlation. */
  requestId: z.string().min(1).max(100).optional(),
  chunk: chunkSchema.optional(),
  /** W3C trace context of the run span (OpenTelemetry); only present when tracing is on. */
  trace: z
    .strictObject({ traceparent: z.string().min(1).max(100), tracestate: z.string().min(1).max(512).optional() })
    .optional(),
});

export type StepPayloadSchema = typeof stepPayloadSchema;
export type StepPayload = z.infer<typeof stepPayloadSchema>;
export type Chunk = z.infer<typeof chunkSchema>;

/** Throws a readable error when a payload is not valid (used on add and on process). */
export function parseStepPayload(data: unknown): StepPayload {
  const result = stepPayloadSchema.safeParse(data);
  if (!result.success) {
    const detail = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new InvalidStepPayloadError(detail);
  }
  return result.data;
}

export class InvalidStepPayloadError extends Error {
  constructor(detail: string) {
    super(`Invalid batch step payload: ${detail}`);
    this.name = 'InvalidStepPayloadError';
  }
}
