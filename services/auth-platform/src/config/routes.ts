import { envelope, ok, perm, type ServiceApp } from '@csp/service-kit';
import { z } from 'zod';
import { actorId } from '../common/request.js';
import { ConfigRepository } from './repository.js';
import { configKeyParams, configListQuery, configResp, configUpdateBody } from './schemas.js';
import { ConfigService } from './service.js';

const MENU = 'SYSTEM_CONFIG';
const tags = ['system-config'];

export async function configRoutes(app: ServiceApp): Promise<void> {
  const service = new ConfigService(new ConfigRepository(app.db), app.cipher);

  app.get(
    '/api/system/config',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Configuration entries (encrypted values masked)', querystring: configListQuery, response: { 200: envelope(z.array(configResp)) } },
    },
    async (request) => ok(await service.list(request.query.configGroup)),
  );

  app.put(
    '/api/system/config/:key',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Set a configuration value (encrypted keys are stored encrypted)', params: configKeyParams, body: configUpdateBody, response: { 200: envelope() } },
    },
    async (request) => {
      const { key } = request.params;
      const { before, after } = await service.update(key, request.body.value, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'system_config', recordId: key, action: 'UPDATE', before, after });
      return ok();
    },
  );
}
