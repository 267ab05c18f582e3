import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Progress, Select, Space } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, downloadFile } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import type { paths } from '../api/schema';
import { useI18n } from '../i18n/i18n.js';
import ResourcePage from '../resources/resource-page.js';
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
    <Card size="small" className="list-toolbar" title={<h2 className="card-title">Issue statements for a month</h2>}>
      <Space wrap>
        <Input aria-label={t('common.month')} placeholder="YYYYMM" maxLength={6} value={month} onChange={(e) => setMonth(e.target.value)} />
        <Select<StatementType>
          aria-label="Statement type"
          value={type}
          onChange={setType}
          options={(['MONTHLY', 'ANNUAL', 'PROOF'] as const).map((v) => ({ value: v, label: v }))}
        />
        <Button type="primary" disabled={!/^\d{6}$/.test(month)} loading={start.isPending} onClick={() => start.mutate()}>
          Issue statements
        </Button>
        {run.data && (
          <Progress
            className="filter-select"
            percent={run.data.percent}
            status={run.data.status === 'FAILED' ? 'exception' : run.data.status === 'RUNNING' ? 'active' : 'success'}
            aria-label="Statement issue progress"
          />
        )}
      </Space>
    </Card>
  );
}

function DownloadButton({ row }: { row: Record<string, unknown> }) {
  const { errorText } = useI18n();
  const { message } = App.useApp();
  const id = row.statementId;
  return (
    <Button
      size="small"
      onClick={() =>
        void downloadFile(`/api/statements/${String(id)}/download`, `statement-${String(id)}.xlsx`).catch((err: unknown) =>
          message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err)),
        )
      }
    >
      Download
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
