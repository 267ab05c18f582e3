import { envelope, ok, pageResponse, paginate, perm, type ServiceApp } from '@csp/service-kit';
import { z } from 'zod';
import { actorId } from '../common/request.js';
import { DataDomainRepository, type DomainRow } from './repository.js';
import { DOMAIN_SORT, domainCreateBody, domainListQuery, domainParams, domainResp, domainUpdateBody, optionResp } from './schemas.js';
import { DataDomainService, toDomainResp } from './service.js';

const MENU = 'SYSTEM_DATA_DOMAIN';
const tags = ['data-domains'];

/** Hand-written rather than a kit resource: the key is a string code, not a numeric id. */
export async function dataDomainRoutes(app: ServiceApp): Promise<void> {
  const repo = new DataDomainRepository(app.db);
  const service = new DataDomainService(repo);

  app.get(
    '/api/data-domains/options',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Active domains as select options', response: { 200: envelope(z.array(optionResp)) } },
    },
    async () => ok((await repo.options()).map((d) => ({ value: d.domain_code, label: d.domain_name, category: d.category }))),
  );

  app.get(
    '/api/data-domains',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'List data domains', querystring: domainListQuery, response: { 200: pageResponse(domainResp) } } },
    async (request) => {
      const page = await paginate(repo.listQuery(request.query), request.query, { sortable: DOMAIN_SORT, defaultSort: 'd.domain_code' });
      return ok({ ...page, list: page.list.map((row) => toDomainResp(row as DomainRow)) });
    },
  );

  app.get(
    '/api/data-domains/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Get a data domain', params: domainParams, response: { 200: envelope(domainResp) } } },
    async (request) => ok(toDomainResp(await service.get(request.params.id))),
  );

  app.post(
    '/api/data-domains',
    { config: perm(MENU, 'CREATE'), schema: { tags, summary: 'Create a data domain', body: domainCreateBody, response: { 200: envelope() } } },
    async (request) => {
      const { domainCode, ...values } = request.body;
      const { after } = await service.create(domainCode, values, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'data_domain', recordId: domainCode, action: 'CREATE', after });
      return ok();
    },
  );

  app.put(
    '/api/data-domains/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a data domain', params: domainParams, body: domainUpdateBody, response: { 200: envelope() } },
    },
    async (request) => {
      const code = request.params.id;
      const { before, after } = await service.update(code, request.body, actorId(request));
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
