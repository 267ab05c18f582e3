import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';

interface Code {
  code: string;
  codeName: string;
  codeNameEn: string | null;
  sortOrder: number;
  tone?: string | null;
}

/** Options of a common-code group (cached by the server and here), named in the UI language. */
export function useCodeOptions(groupCode: string | null | undefined) {
  const { lang } = useI18n();
  const query = useQuery({
    queryKey: ['codes', groupCode],
    enabled: !!groupCode,
    staleTime: 10 * 60_000,
    queryFn: async () =>
      unwrap<Code[]>(await api.GET('/api/common/codes/{groupCode}', { params: { path: { groupCode: groupCode! } } })),
  });
  return (query.data ?? []).map((c) => ({
    value: c.code,
    label: lang === 'en' && c.codeNameEn ? c.codeNameEn : c.codeName,
    tone: c.tone ?? null,
  }));
}
