import { sql } from 'kysely';
import { z } from 'zod';
import { action, AppError, envelope, notFound, ok, perm, registerResource, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { anomalyResource, MENU_RETENTION } from './anomaly.resource.js';
import { detectAnomalies } from './anomaly.service.js';

const tags = ['Retention anomalies'];

const detectBody = z.object({
  cohortMonth: zSettleMonth,
  /** 13, 25 or both (default). */
  horizon: z.union([z.literal(13), z.literal(25)]).optional(),
});
const detectResult = z.object({
  cohortMonth: z.string(),
  horizon: z.number().int(),
  skipped: z.string().nullable(),
  created: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  alerts: z.number().int(),
});
const reviewBody = z.object({
  note: z.string().trim().min(1).max(1000),
  version: z.number().int().min(0).optional().describe('the version read; a stale one gives B002'),
});

/**
 * Alerts list/detail, detection (idempotent per cohort) and review (OPEN -> REVIEWED with a note).
 * KPI_RETENTION has only READ in spec 5.5, so detection and review are guarded by it too; both write
 * only analytics' own alert rows and are change-logged.
 */
export async function registerAnomalyRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, anomalyResource);

  action(
    app,
    '/api/retention-anomalies/detect',
    {
      config: perm(MENU_RETENTION, 'READ'),
      schema: {
        tags,
        summary: 'Detect retention anomalies of a cohort month (13- and 25-month); repeating it changes nothing',
        body: detectBody,
        response: { 200: envelope(z.array(detectResult)) },
      },
    },
    async (request) => {
      const { cohortMonth, horizon } = request.body;
      const results = await app.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(70107, ${Number(cohortMonth)})`.execute(trx);
        const out = [];
        for (const h of horizon ? [horizon] : [13, 25]) out.push(await detectAnomalies(trx, cohortMonth, h));
        return out;
      });
      request.changeLog({
        menuCode: MENU_RETENTION,
        tableName: 'retention_anomaly_alert',
        recordId: null,
        action: 'CREATE',
        after: results,
      });
      return ok(results);
    },
  );

  action(
    app,
    '/api/retention-anomalies/:id/review',
    {
      config: perm(MENU_RETENTION, 'READ'),
      schema: {
        tags,
        summary: 'Review an alert: OPEN -> REVIEWED with a note',
        params: z.object({ id: zId }),
        body: reviewBody,
        response: { 200: envelope(anomalyResource.schemas.response) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { note, version } = request.body;
      const userId = request.user?.userId ?? null;
      const { before, after } = await app.db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('retention_anomaly_alert').selectAll().where('alert_id', '=', id).forUpdate().executeTakeFirst();
        if (!existing) throw notFound(`RetentionAnomaly ${id}`);
        if (version !== undefined && version !== existing.version) throw new AppError('RULE_VERSION_CONFLICT');
        if (existing.status !== 'OPEN') throw new AppError('ALREADY_CONFIRMED', `alert ${id} is already ${existing.status}`);
        const updated = await trx
          .updateTable('retention_anomaly_alert')
          .set({
            status: 'REVIEWED',
            review_note: note,
            reviewed_by: userId,
            reviewed_at: sql`now()`,
            updated_at: sql`now()`,
            version: sql`version + 1`,
          })
          .where('alert_id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { before: existing, after: updated };
      });
      request.changeLog({ menuCode: MENU_RETENTION, tableName: 'retention_anomaly_alert', recordId: id, action: 'UPDATE', before, after });
      const row = await anomalyResource.select(app.db).where(sql.ref(anomalyResource.idRef), '=', id).executeTakeFirstOrThrow();
      return ok(anomalyResource.toResp(row, app.cipher));
    },
  );
}
