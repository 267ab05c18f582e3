import { envelope, ok, perm, type ServiceApp } from '@csp/service-kit';
import { z } from 'zod';

const MENU = 'BATCH_RUN';

/** What the gateway's queue dashboard (/ops/queues) reports after an operator changed the queues. */
export const opsActionBody = z.object({
  /** The dashboard action, e.g. RETRY, CLEAN, REMOVE, PROMOTE, PAUSE, RESUME, EMPTY. */
  action: z.string().trim().min(1).max(30).toUpperCase(),
  queue: z.string().trim().min(1).max(100),
  /** The job concerned; absent for an action on a whole queue (retry all failed, clean completed). */
  jobId: z.string().trim().min(1).max(200).optional(),
  /** The job state the action applied to (failed, completed, delayed ...), when the dashboard says. */
  jobState: z.string().trim().min(1).max(30).optional(),
  /** The dashboard request, for the record. */
  method: z.string().trim().min(1).max(10),
  path: z.string().trim().min(1).max(500),
});

const DELETING = new Set(['CLEAN', 'REMOVE', 'EMPTY', 'OBLITERATE']);

/**
 * `POST /api/batch/settlement/ops-actions`: the change-log entry of a dashboard action (retry, clean ...).
 * The gateway calls it with the operator's own token after the action succeeded, so the entry carries
 * the operator's user id and the request id like every other change.
 */
export async function registerOpsActionLog(app: ServiceApp): Promise<void> {
  app.post(
    '/api/batch/settlement/ops-actions',
    {
      config: perm(MENU, 'APPROVE'),
      schema: {
        tags: ['Batch'],
        summary: 'Record a queue dashboard action (retry, clean ...) in the change log; called by the gateway',
        body: opsActionBody,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const body = request.body;
      request.changeLog({
        menuCode: MENU,
        tableName: 'bullmq_queue',
        recordId: body.jobId ? `${body.queue}/${body.jobId}` : body.queue,
        action: DELETING.has(body.action) ? 'DELETE' : 'UPDATE',
        after: body,
      });
      request.log.info({ opsAction: body }, `queue dashboard: ${body.action} on ${body.queue}`);
      return ok();
    },
  );
}
