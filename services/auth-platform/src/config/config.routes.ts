import { z } from 'zod';
import { envelope, ok, perm, type ServiceApp } from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { CONFIG_MENU as MENU, configResource } from './config.resource.js';
import { ConfigService } from './config.service.js';

const tags = configResource.tags;

export async function configRoutes(app: ServiceApp): Promise<void> {
  const service = new ConfigService(app);

  app.get(
    '/api/system/config',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Configuration entries (encrypted values masked)',
        querystring: configResource.schemas.listQuery.pick({ configGroup: true }),
        response: { 200: envelope(z.array(configResource.schemas.response)) },
      },
    },
    async (request) => ok(await service.list(request.query)),
  );

  app.put(
    '/api/system/config/:key',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Set a configuration value (encrypted keys are stored encrypted)',
        params: z.object({ key: z.string().trim().min(1).max(50) }),
        body: z.object({ value: z.union([z.string().max(4000), z.number()]).transform(String) }),
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const { key } = request.params;
      const { before, after } = await service.update(key, request.body.value, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'system_config', recordId: key, action: 'UPDATE', before, after });
      return ok();
    },
  );
}
