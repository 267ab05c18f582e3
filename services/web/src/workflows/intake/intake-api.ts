import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { unwrap, type PageResponse } from '../../api/envelope.js';
import { postMultipart } from '../../api/multipart.js';
import type { paths } from '../../api/schema';

export interface Company {
  companyCode: string;
  companyName: string;
}

export type Profile = paths['/api/mapping/profiles']['get']['responses'][200]['content']['application/json']['data']['list'][number];
export type FieldMapping = paths['/api/mapping/{companyCode}/fields']['get']['responses'][200]['content']['application/json']['data']['list'][number];
export type FieldMappingSave = NonNullable<paths['/api/mapping/{companyCode}/fields']['post']['requestBody']>['content']['application/json'];
export type DataType = 'RECRUIT' | 'MAINTAIN';
export type TargetTable = 'recruit_ledger' | 'maintain_ledger';
export const LEDGER_OF: Record<DataType, TargetTable> = { RECRUIT: 'recruit_ledger', MAINTAIN: 'maintain_ledger' };

/** What POST /api/mapping/{companyCode}/test-parse answers (the route's declared response). */
export type TestParseResult =
  paths['/api/mapping/{companyCode}/test-parse']['post']['responses'][200]['content']['application/json']['data'];

export function useCompanies() {
  return useQuery({
    queryKey: ['companies', 'all-list'],
    staleTime: 5 * 60_000,
    queryFn: async () =>
      unwrap<PageResponse<Company>>(await api.GET('/api/companies', { params: { query: { pageSize: 200 } as never } })).list,
  });
}

export function useProfiles() {
  return useQuery({
    queryKey: ['list', '/api/mapping/profiles', 'options'],
    queryFn: async () => unwrap<PageResponse<Profile>>(await api.GET('/api/mapping/profiles', { params: { query: { pageSize: 100 } as never } })).list,
  });
}

/** The active mappings of a carrier's ledger table (newest version per target field). */
export function useFieldMappings(companyCode: string | undefined, table: TargetTable) {
  return useQuery({
    queryKey: ['list', '/api/mapping/:companyCode/fields', companyCode, table],
    enabled: !!companyCode,
    queryFn: async () =>
      unwrap<PageResponse<FieldMapping>>(
        await api.GET('/api/mapping/{companyCode}/fields', {
          params: { path: { companyCode: companyCode! }, query: { targetTable: table, pageSize: 100 } as never },
        }),
      ).list.filter((m) => m.isActive !== false),
  });
}

export function testParse(companyCode: string, fields: { settleMonth: string; dataType: DataType; limit?: number }, file: File): Promise<TestParseResult> {
  return postMultipart<TestParseResult>(
    `/api/mapping/${encodeURIComponent(companyCode)}/test-parse`,
    { settleMonth: fields.settleMonth, dataType: fields.dataType, limit: String(fields.limit ?? 100) },
    file,
  );
}

/** yyyyMM -> the first day of the month (the day a mapping version must start for the month to use it). */
export function firstDayOf(month: string): string {
  return `${month.slice(0, 4)}-${month.slice(4, 6)}-01`;
}
