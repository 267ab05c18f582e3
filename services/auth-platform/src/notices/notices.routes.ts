import { sql } from 'kysely';
import { registerResource, type ServiceApp } from '@csp/service-kit';
import { noticeResource } from './notices.resource.js';

export async function noticeRoutes(app: ServiceApp): Promise<void> {
  // Opening a notice counts as a view; the count is raised before the detail is read so the
  // response includes this view. A missing notice updates nothing and the detail route answers E404.
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'GET' || request.routeOptions.url !== `${noticeResource.path}/:${noticeResource.idParam}`) return;
    const { id } = request.params as { id: number };
    await app.db
      .updateTable('notice')
      .set({ view_count: sql<number>`view_count + 1` })
      .where('notice_id', '=', id)
      .execute();
  });
  registerResource(app, noticeResource);
}
