import { z } from 'zod';
import { envelope, ok, perm, registerResource, type ServiceApp } from '@csp/service-kit';
import { DataDomainRepository } from './data-domains.repository.js';
import { DOMAIN_MENU as MENU, dataDomainResource, domainParams } from './data-domains.resource.js';
import { DataDomainService } from './data-domains.service.js';

const tags = dataDomainResource.tags;
const response = dataDomainResource.schemas.response;

export async function dataDomainRoutes(app: ServiceApp): Promise<void> {
  const repo = new DataDomainRepository(app.db);
  const service = new DataDomainService(app, repo);

  app.get(
    '/api/data-domains/options',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Active domains as select options',
        response: { 200: envelope(z.array(z.object({ value: z.string(), label: z.string(), category: z.string() }))) },
      },
    },
    async () => ok((await repo.options()).map((d) => ({ value: d.domain_code, label: d.domain_name, category: d.category }))),
  );

  registerResource(app, dataDomainResource);

  app.get(
    '/api/data-domains/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Get a data domain', params: domainParams, response: { 200: envelope(response) } } },
    async (request) => ok(await service.get(request.params.id)),
  );

  app.post(
    '/api/data-domains',
    { config: perm(MENU, 'CREATE'), schema: { tags, summary: 'Create a data domain', body: dataDomainResource.schemas.save, response: { 200: envelope() } } },
    async (request) => {
      const { after } = await service.create(request, request.body);
      request.changeLog({ menuCode: MENU, tableName: 'data_domain', recordId: after.domainCode!, action: 'CREATE', after });
      return ok();
    },
  );

  app.put(
    '/api/data-domains/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a data domain', params: domainParams, body: dataDomainResource.schemas.update, response: { 200: envelope() } },
    },
    async (request) => {
      const code = request.params.id;
      const { before, after } = await service.update(request, code, request.body);
      request.changeLog({ menuCode: MENU, tableName: 'data_domain', recordId: code, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    '/api/data-domains/:id',
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete a data domain (E400 while dictionary rows reference it)', params: domainParams, response: { 200: envelope() } },
    },
    async (request) => {
      const code = request.params.id;
      const { before } = await service.delete(code);
      request.changeLog({ menuCode: MENU, tableName: 'data_domain', recordId: code, action: 'DELETE', before });
      return ok();
    },
  );
}
