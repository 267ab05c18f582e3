import { useQuery } from '@tanstack/react-query';
import { Alert, Grid, Table, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import { api } from '../../api/client.js';
import { unwrap, type PageResponse } from '../../api/envelope.js';
import type { paths } from '../../api/schema';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { formatTimestamp } from '../../shared/format.js';
import { useGrant } from '../../shell/menus.js';
import { RefName } from '../../resources/ref-name.js';
import { loggedValue, settingName } from './config-words.js';
import { PlainValue } from './shown-value.js';

type Change = paths['/api/system/logs/changes']['get']['responses'][200]['content']['application/json']['data']['list'][number];

const PAGE_SIZE = 10;

/** A logged value: the server masked encrypted ones before logging them. */
function Logged({ value, configKey }: { value: string | null; configKey: string | null }) {
  const { t } = useI18n();
  if (value === null || value === '') return <Typography.Text type="secondary">{t('config.empty')}</Typography.Text>;
  return (
    <span>
      <PlainValue configKey={configKey} value={value} />
    </span>
  );
}

const USER = { resource: 'User', valueField: 'userId', labelField: 'userName', picker: 'search' } as const;

/** The platform's data change log of system_config (SYSTEM_LOG READ), newest first. */
export function ConfigChanges() {
  const { t, lang } = useI18n();
  const canRead = useGrant('SYSTEM_LOG')('READ');
  const [pageNum, setPageNum] = useState(1);
  const changes = useQuery({
    queryKey: ['system-config', 'changes', pageNum],
    enabled: canRead,
    placeholderData: (previous) => previous,
    queryFn: async () =>
      unwrap<PageResponse<Change>>(
        await api.GET('/api/system/logs/changes', {
          params: { query: { tableName: 'system_config', sortField: 'createdAt', sortOrder: 'DESC', pageNum, pageSize: PAGE_SIZE } },
        }),
      ),
  });
  const phone = Grid.useBreakpoint().md === false;
  if (!canRead) return <Alert type="info" showIcon title={t('config.logNoAccess')} />;
  const columns: TableProps<Change>['columns'] = [
    { key: 'at', dataIndex: 'createdAt', title: t('config.changedAt'), render: (v: string) => <span className="nowrap">{formatTimestamp(v)}</span> },
    {
      key: 'setting',
      title: t('config.setting'),
      render: (_: unknown, r) => {
        const key = r.recordId ?? '';
        return (
          <>
            <div>{settingName(lang, { configKey: key, description: null })}</div>
            <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
              {key}
            </Typography.Text>
          </>
        );
      },
    },
    { key: 'before', title: t('config.before'), render: (_: unknown, r) => <Logged configKey={r.recordId ?? null} value={loggedValue(r.beforeData)} /> },
    { key: 'after', title: t('config.after'), render: (_: unknown, r) => <Logged configKey={r.recordId ?? null} value={loggedValue(r.afterData)} /> },
    { key: 'by', dataIndex: 'userId', title: t('config.changedBy'), responsive: ['md'], render: (id: number | null) => (id === null ? '-' : <RefName target={USER} value={String(id)} />) },
  ];
  // On a phone one column: when and which setting, then the value before and after.
  const phoneColumns: TableProps<Change>['columns'] = [
    {
      key: 'change',
      title: t('config.log'),
      render: (_: unknown, r) => (
        <>
          <div className="nowrap">{formatTimestamp(r.createdAt)}</div>
          <div>{settingName(lang, { configKey: r.recordId ?? '', description: null })}</div>
          <div>
            <Logged configKey={r.recordId ?? null} value={loggedValue(r.beforeData)} /> → <Logged configKey={r.recordId ?? null} value={loggedValue(r.afterData)} />
          </div>
        </>
      ),
    },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('config.logIntro')}</Typography.Paragraph>
      {changes.error ? <ErrorNotice error={changes.error} /> : null}
      <Table<Change>
        rowKey="changeId"
        size="small"
        className="config-changes"
        loading={changes.isFetching}
        columns={phone ? phoneColumns : columns}
        dataSource={changes.data?.list ?? []}
        // antd draws the empty text in its disabled grey, below AA contrast: ours is plain text.
        locale={{ emptyText: <Typography.Text>{t('config.logEmpty')}</Typography.Text> }}
        onChange={(p) => setPageNum(p.current ?? 1)}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: changes.data?.total ?? 0, showSizeChanger: false }}
      />
    </>
  );
}
