import type { FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import type { Database } from '@csp/db';
import { AppError, notFound, type AnyRow, type ServiceApp } from '@csp/service-kit';
import { findRow, writeContext } from '../common/resource-rows.js';
import type { DataDomainRepository } from './data-domains.repository.js';
import { assertValidDomain, dataDomainResource } from './data-domains.resource.js';

export class DataDomainService {
  constructor(
    private readonly app: ServiceApp,
    private readonly repo: DataDomainRepository,
  ) {}

  async get(domainCode: string) {
    const row = await findRow(dataDomainResource, this.app.db, domainCode);
    if (!row) throw notFound(`Data domain ${domainCode}`);
    return dataDomainResource.toResp(row, this.app.cipher);
  }

  async create(request: FastifyRequest, body: AnyRow) {
    assertValidDomain(body);
    await this.app.db.transaction().execute(async (trx) => {
      const values = await dataDomainResource.toInsert(body, writeContext(this.app, request, trx));
      await trx.insertInto('data_domain').values(values as Insertable<Database['data_domain']>).execute();
    });
    return { after: await this.get(body.domainCode) };
  }

  async update(request: FastifyRequest, domainCode: string, body: AnyRow) {
    const before = await this.get(domainCode);
    assertValidDomain(body);
    await this.app.db.transaction().execute(async (trx) => {
      const values = await dataDomainResource.toUpdate(body, writeContext(this.app, request, trx), before);
      await trx.updateTable('data_domain').set(values).where('domain_code', '=', domainCode).execute();
    });
    return { before, after: await this.get(domainCode) };
  }

  /** Spec 7.13: a domain referenced by a dictionary row is not deleted (E400 naming the count). */
  async delete(domainCode: string) {
    const before = await this.get(domainCode);
    if (!(await this.repo.deleteUnreferenced(domainCode))) {
      const current = await this.get(domainCode);
      throw new AppError('BAD_REQUEST', `Data domain ${domainCode} is referenced by ${current.usageCount} dictionary row(s)`);
    }
    return { before };
  }
}
