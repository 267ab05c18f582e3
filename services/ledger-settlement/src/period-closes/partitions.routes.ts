import { z } from 'zod';
import { action, envelope, forbidden, ok, perm, type ServiceApp } from '@csp/service-kit';
import { MENU_PERIOD_CLOSE } from './period-close.resource.js';
import { archiveYear, partitionState, restoreYear, startPartitionMaintenance } from './partitions.service.js';

const tags = ['Period close'];
const yearBody = z.object({ year: z.number().int().min(2000).max(2999) });
const moveResp = z.object({ year: z.number().int(), months: z.array(z.string()), tables: z.array(z.string()) });
const stateResp = z.object({ liveMonths: z.array(z.string()), archivedMonths: z.array(z.string()) });

/**
 * Month partitions (issue 27): which months are live or archived, and the SUPER_ADMIN operations that detach a
 * closed year into schema archive and re-attach it. Lists read an archived month with `includeArchive=true`.
 */
export async function registerPartitionRoutes(app: ServiceApp): Promise<void> {
  startPartitionMaintenance(app);

  app.get(
    '/api/period-closes/partitions',
    {
      config: perm(MENU_PERIOD_CLOSE, 'READ'),
      schema: { tags, summary: 'Months with live and with archived partitions', response: { 200: envelope(stateResp) } },
    },
    async () => ok(await partitionState(app.db)),
  );

  const superAdminOnly = (roles: string[] | undefined) => {
    if (!roles?.includes('SUPER_ADMIN')) throw forbidden('archiving month partitions is for SUPER_ADMIN');
  };

  action(
    app,
    '/api/period-closes/partitions/archive',
    {
      config: perm(MENU_PERIOD_CLOSE, 'UPDATE'),
      schema: {
        tags,
        summary: 'SUPER_ADMIN: detach a closed year\'s month partitions into schema archive (every month with rows CLOSED, else E411)',
        body: yearBody,
        response: { 200: envelope(moveResp) },
      },
    },
    async (request) => {
      superAdminOnly(request.user?.roleCodes);
      const moved = await archiveYear(app.db, request.body.year);
      const after = { year: request.body.year, ...moved };
      request.changeLog({ menuCode: MENU_PERIOD_CLOSE, tableName: 'period_close', recordId: `archive-${request.body.year}`, action: 'UPDATE', after });
      return ok(after);
    },
  );

  action(
    app,
    '/api/period-closes/partitions/restore',
    {
      config: perm(MENU_PERIOD_CLOSE, 'UPDATE'),
      schema: {
        tags,
        summary: 'SUPER_ADMIN: re-attach a year\'s archived month partitions',
        body: yearBody,
        response: { 200: envelope(moveResp) },
      },
    },
    async (request) => {
      superAdminOnly(request.user?.roleCodes);
      const moved = await restoreYear(app.db, request.body.year);
      const after = { year: request.body.year, ...moved };
      request.changeLog({ menuCode: MENU_PERIOD_CLOSE, tableName: 'period_close', recordId: `restore-${request.body.year}`, action: 'UPDATE', after });
      return ok(after);
    },
  );
}
