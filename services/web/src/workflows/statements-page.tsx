import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Progress, Select, Space } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, downloadFile } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import type { paths } from '../api/schema';
import { useI18n } from '../i18n/i18n.js';
import ResourcePage from '../resources/resource-page.js';
import { MonthInput, monthPattern } from '../shared/month-input.js';
import { useGrant } from '../shell/menus.js';

type Run = paths['/api/statements/generate-for-month/{runId}']['get']['responses'][200]['content']['application/json']['data'];
type StatementType = 'MONTHLY' | 'ANNUAL' | 'PROOF';

function GenerateForMonth() {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const can = useGrant('STATEMENT');
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [month, setMonth] = useState(params.get('settleMonth') ?? '');
  const [type, setType] = useState<StatementType>('MONTHLY');
  const [runId, setRunId] = useState<number | null>(null);

  const start = useMutation({
    mutationFn: async () =>
      unwrap<{ runId: number; totalCount: number }>(await api.POST('/api/statements/generate-for-month', { body: { settleMonth: month, statementType: type } })),
    onSuccess: (data) => setRunId(data.runId),
    onError: (err) => void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err)),
  });
  const run = useQuery({
    queryKey: ['statements', 'run', runId],
    enabled: runId !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'RUNNING' ? false : 1000),
    queryFn: async () => {
      const data = unwrap<Run>(await api.GET('/api/statements/generate-for-month/{runId}', { params: { path: { runId: runId! } } }));
      if (data.status !== 'RUNNING') await queryClient.invalidateQueries({ queryKey: ['list'] });
      return data;
    },
  });

  if (!can('CREATE')) return null;
  return (
    <Card size="small" className="list-toolbar" title={<h2 className="card-title">{t('stmt.issue')}</h2>}>
      <Space wrap>
        <MonthInput aria-label={t('common.month')} value={month} onChange={(v) => setMonth(v ?? '')} />
        <Select<StatementType>
          aria-label={t('stmt.type')}
          value={type}
          onChange={setType}
          options={[
            { value: 'MONTHLY', label: t('stmt.monthly') },
            { value: 'ANNUAL', label: t('stmt.annual') },
            { value: 'PROOF', label: t('stmt.proof') },
          ]}
        />
        <Button type="primary" disabled={!monthPattern.test(month)} loading={start.isPending} onClick={() => start.mutate()}>
          {t('stmt.issueButton')}
        </Button>
        {run.data && (
          <Progress
            className="filter-select"
            percent={run.data.percent}
            status={run.data.status === 'FAILED' ? 'exception' : run.data.status === 'RUNNING' ? 'active' : 'success'}
            aria-label={t('stmt.progress')}
          />
        )}
      </Space>
    </Card>
  );
}

function DownloadButton({ row }: { row: Record<string, unknown> }) {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const id = row.statementId;
  return (
    <Button
      size="small"
      onClick={() =>
        void downloadFile(`/api/statements/${String(id)}/download`, `statement-${String(id)}.xlsx`)
          // A download marks the statement sent: the list shows it at once.
          .then(() => queryClient.invalidateQueries({ queryKey: ['list'] }))
          .catch((err: unknown) => message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err)))
      }
    >
      {t('stmt.download')}
    </Button>
  );
}

export default function StatementsPage() {
  return (
    <ResourcePage
      above={() => <GenerateForMonth />}
      rowActions={(resource, row) => (resource.path === '/api/statements' && row.statementId != null ? <DownloadButton row={row} /> : null)}
    />
  );
}
