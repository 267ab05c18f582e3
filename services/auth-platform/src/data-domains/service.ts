import { AppError, invalid, isoTimestamp, notFound } from '@csp/service-kit';
import type { DataDomainRepository, DomainRow, DomainWrite } from './repository.js';

export function toDomainResp(row: DomainRow) {
  return {
    domainCode: row.domain_code,
    domainName: row.domain_name,
    category: row.category,
    dataType: row.data_type,
    length: row.length,
    precision: row.precision,
    scale: row.scale,
    formatPattern: row.format_pattern,
    validationRegex: row.validation_regex,
    maskingType: row.masking_type,
    encrypted: row.encrypted,
    description: row.description,
    isActive: row.is_active,
    usageCount: row.usage_count,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

function assertValid(v: DomainWrite): void {
  if (v.validationRegex) {
    try {
      new RegExp(v.validationRegex);
    } catch {
      throw invalid('validationRegex', 'is not a valid regular expression');
    }
  }
  if (v.scale != null && v.precision != null && v.scale > v.precision) throw invalid('scale', 'must not exceed precision');
}

export class DataDomainService {
  constructor(private readonly repo: DataDomainRepository) {}

  async get(domainCode: string): Promise<DomainRow> {
    const row = await this.repo.find(domainCode);
    if (!row) throw notFound(`Data domain ${domainCode}`);
    return row;
  }

  async create(domainCode: string, v: DomainWrite, actorId: number | null) {
    assertValid(v);
    await this.repo.insert(domainCode, v, actorId);
    return { after: toDomainResp(await this.get(domainCode)) };
  }

  async update(domainCode: string, v: DomainWrite, actorId: number | null) {
    const before = await this.get(domainCode);
    assertValid(v);
    await this.repo.update(domainCode, v, actorId);
    return { before: toDomainResp(before), after: toDomainResp(await this.get(domainCode)) };
  }

  /** Spec 7.13: a domain referenced by a dictionary row is not deleted (E400 naming the count). */
  async delete(domainCode: string) {
    const before = await this.get(domainCode);
    if (!(await this.repo.deleteUnreferenced(domainCode))) {
      const current = await this.get(domainCode);
      throw new AppError('BAD_REQUEST', `Data domain ${domainCode} is referenced by ${current.usage_count} dictionary row(s)`);
    }
    return { before: toDomainResp(before) };
  }
}
