import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Progress, Result, Select, Space, Table, Typography, type TableProps } from 'antd';
import { Link } from 'react-router';
import { api, openQueueDashboard } from '../api/client.js';
import { ApiError, unwrap, type PageResponse } from '../api/envelope.js';
import type { paths } from '../api/schema';
import { useAuth } from '../auth/auth.js';
import { lookup, useI18n } from '../i18n/i18n.js';
import { StatusTag } from '../shared/status-tag.js';
import { ErrorNotice } from '../resources/error-notice.js';
import { PageTitle } from '../resources/resource-page.js';
import { PAGE_SIZES, useListState } from '../resources/url-state.js';
import { formatMonth, formatTimestamp } from '../shared/format.js';
import { MonthInput, monthPattern } from '../shared/month-input.js';
import { useCompanies } from './intake/intake-api.js';
import { useCurrentPage, useGrant } from '../shell/menus.js';

type RunStatus = paths['/api/batch/settlement/status']['get']['responses'][200]['content']['application/json']['data'];
type Run = RunStatus['run'];
type Step = RunStatus['steps'][number];

const ACTIVE = new Set(['REQUESTED', 'RUNNING']);
const EXTRA_KEYS = ['settleMonth', 'run'] as const;


function RunDetail({ runId }: { runId: number }) {
  const { t, errorText, lang } = useI18n();
  const stepName = (name: string) => lookup(lang, `step.${name}`) ?? name;
  const { message } = App.useApp();
  const can = useGrant('BATCH_RUN');
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: ['batch', 'status', runId],
    queryFn: async () =>
      unwrap<RunStatus>(await api.GET('/api/batch/settlement/status', { params: { query: { jobLogId: runId } } })),
    // Live while the run is active; the list refreshes with it.
    refetchInterval: (query) => (query.state.data && !ACTIVE.has(query.state.data.run.status) ? false : 1000),
  });
  const act = useMutation({
    mutationFn: async (action: 'restart' | 'fail') =>
      unwrap(
        action === 'restart'
          ? await api.POST('/api/batch/settlement/{id}/restart', { params: { path: { id: runId } } })
          : await api.POST('/api/batch/settlement/{id}/fail', { params: { path: { id: runId } }, body: { reason: t('batch.failReason') } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['batch'] }),
    onError: (err) => void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err)),
  });

  if (status.error) return <ErrorNotice error={status.error} />;
  const data = status.data;
  if (!data) return null;
  const { run, steps } = data;

  const columns: TableProps<Step>['columns'] = [
    { key: 'seq', dataIndex: 'stepSeq', title: '#' },
    { key: 'name', dataIndex: 'stepName', title: t('batch.step'), render: (name: string) => stepName(name) },
    { key: 'status', dataIndex: 'status', title: t('common.status'), render: (s: string, step) => (step.skipped ? <StatusTag status="SKIPPED" /> : <StatusTag status={s} />) },
    {
      key: 'progress',
      title: t('batch.progress'),
      render: (_: unknown, step) => (
        <Progress
          percent={step.status === 'COMPLETED' ? 100 : (step.progress?.percent ?? 0)}
          size="small"
          status={step.status === 'FAILED' ? 'exception' : step.status === 'RUNNING' ? 'active' : undefined}
          aria-label={t('batch.progressOf', { step: stepName(step.stepName) })}
        />
      ),
    },
    { key: 'success', dataIndex: 'successCount', title: t('batch.done'), align: 'right' },
    { key: 'errors', dataIndex: 'errorCount', title: t('batch.errors'), align: 'right' },
    { key: 'skippedCount', dataIndex: 'skippedCount', title: t('batch.skipped'), align: 'right' },
    { key: 'duration', dataIndex: 'durationMs', title: t('batch.duration'), align: 'right' },
    { key: 'message', dataIndex: 'errorMessage', title: t('batch.message') },
  ];

  return (
    <Card
      size="small"
      className="run-steps"
      title={
        <h2 className="card-title">
          {t('batch.run.title', { id: run.jobLogId, month: formatMonth(run.settleMonth) })} <StatusTag status={run.status} />
        </h2>
      }
      extra={
        can('APPROVE') && (
          <Space>
            {run.status === 'FAILED' && (
              <Button onClick={() => act.mutate('restart')} loading={act.isPending}>
                {t('batch.restart')}
              </Button>
            )}
            {ACTIVE.has(run.status) && (
              <Button danger onClick={() => act.mutate('fail')} loading={act.isPending}>
                {t('batch.fail')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {run.errorMessage && <Alert type="error" showIcon title={run.errorMessage} className="list-toolbar" />}
      {data.watchdog?.reason && <Alert type="warning" showIcon title={data.watchdog.reason} className="list-toolbar" />}
      <Typography.Paragraph>
        {t('batch.counts', { total: run.totalCount, done: run.successCount, errors: run.errorCount, skipped: run.skippedCount })}
        {run.durationMs != null && t('batch.durationText', { ms: run.durationMs })}
        {run.status === 'COMPLETED' && (
          <>
            {' · '}
            <Link to={`/settle?settleMonth=${run.settleMonth}`}>{t('settle.runLink')}</Link>
          </>
        )}
      </Typography.Paragraph>
      <Table<Step> rowKey="stepSeq" size="small" columns={columns} dataSource={steps} pagination={false} aria-label={t('batch.steps')} />
    </Card>
  );
}

export default function BatchMonitorPage() {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const { user } = useAuth();
  const companies = useCompanies();
  const page = useCurrentPage();
  const can = useGrant('BATCH_RUN');
  const queryClient = useQueryClient();
  const state = useListState(EXTRA_KEYS);
  const [form] = Form.useForm<{ settleMonth: string; companyCode?: string }>();
  const selected = state.query.run ? Number(state.query.run) : undefined;
  const operator = user?.roleCodes.some((r) => r === 'SUPER_ADMIN' || r === 'ADMIN') ?? false;

  const runs = useQuery({
    queryKey: ['batch', 'runs', state.query],
    placeholderData: (previous) => previous,
    refetchInterval: 3000,
    queryFn: async () => {
      const query = Object.fromEntries(Object.entries(state.query).filter(([key]) => key !== 'run'));
      return unwrap<PageResponse<Run>>(
        await api.GET('/api/batch/settlement/runs', { params: { query: { pageSize: state.pageSize, ...query } as never } }),
      );
    },
  });

  const start = useMutation({
    mutationFn: async (values: { settleMonth: string; companyCode?: string }) =>
      unwrap<number>(
        await api.POST('/api/batch/settlement/run', {
          params: { query: { settleMonth: values.settleMonth, ...(values.companyCode ? { companyCode: values.companyCode } : {}) } },
        }),
      ),
    onSuccess: async (id) => {
      void message.success(t('batch.runStarted', { id }));
      state.update({ run: id }, { keepPage: true });
      await queryClient.invalidateQueries({ queryKey: ['batch', 'runs'] });
    },
    onError: (err) => void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err)),
  });

  const columns: TableProps<Run>['columns'] = [
    {
      key: 'id',
      dataIndex: 'jobLogId',
      title: t('batch.runId'),
      render: (id: number) => (
        <Button type="link" size="small" onClick={() => state.update({ run: id }, { keepPage: true })} aria-label={t('batch.showRun', { id })}>
          {id}
        </Button>
      ),
    },
    { key: 'month', dataIndex: 'settleMonth', title: t('common.month'), render: (m: string) => formatMonth(m) },
    {
      key: 'company',
      dataIndex: 'companyCode',
      title: t('batch.company'),
      render: (code: string | null) =>
        code ? (companies.data?.find((c) => c.companyCode === code)?.companyName ?? code) : t('batch.allCarriers'),
    },
    { key: 'status', dataIndex: 'status', title: t('common.status'), render: (s: string) => <StatusTag status={s} /> },
    { key: 'attempt', dataIndex: 'runAttempt', title: t('batch.attempt'), align: 'right' },
    { key: 'started', dataIndex: 'startedAt', title: t('batch.started'), render: (v: string | null) => formatTimestamp(v) },
    { key: 'ended', dataIndex: 'endedAt', title: t('batch.ended'), render: (v: string | null) => formatTimestamp(v) },
  ];

  // A user whose role only reads its own settlements is told where to go instead of a raw refusal.
  if (runs.error instanceof ApiError && runs.error.code === 'E403') {
    return (
      <>
        {page && <PageTitle page={page} />}
        <Result status="403" title={t('forbidden.title')} subTitle={t('batch.noAccess')} extra={<Link to="/settle">{t('settle.title')}</Link>} />
      </>
    );
  }

  return (
    <>
      {page && <PageTitle page={page} />}
      <Space className="list-toolbar" wrap>
        {can('APPROVE') && (
          <Form form={form} layout="inline" name="batch-run" initialValues={{ settleMonth: state.query.settleMonth }} onFinish={(v) => start.mutate(v)}>
            <Form.Item
              name="settleMonth"
              label={t('common.month')}
              rules={[{ required: true, pattern: monthPattern, message: t('common.monthInvalid') }]}
            >
              <MonthInput />
            </Form.Item>
            <Form.Item name="companyCode" label={t('batch.company')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('batch.allCarriers')}
                className="filter-select"
                options={(companies.data ?? []).map((c) => ({ value: c.companyCode, label: c.companyName }))}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={start.isPending}>
              {t('batch.run')}
            </Button>
          </Form>
        )}
        {operator && (
          <a
            href="/ops/queues"
            target="_blank"
            rel="noreferrer"
            onClick={(event) => {
              event.preventDefault();
              openQueueDashboard().catch((err: unknown) =>
                message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err)),
              );
            }}
          >
            {t('batch.queueDashboard')}
          </a>
        )}
      </Space>
      {selected !== undefined && Number.isInteger(selected) && <RunDetail runId={selected} />}
      <h2 className="card-title">{t('batch.runs')}</h2>
      {runs.error ? <ErrorNotice error={runs.error} /> : null}
      <Table<Run>
        rowKey="jobLogId"
        size="small"
        columns={columns}
        dataSource={runs.data?.list ?? []}
        onChange={(p) => state.update({ pageNum: p.current ?? 1, pageSize: p.pageSize ?? 20 }, { keepPage: true })}
        pagination={{
          current: state.pageNum,
          pageSize: state.pageSize,
          total: runs.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
        }}
      />
    </>
  );
}
