import { useQuery } from '@tanstack/react-query';
import { Button, Card, Grid, Space, Table, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import { api } from '../../api/client.js';
import { unwrap } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { PageTitle } from '../../resources/resource-page.js';
import { formatTimestamp } from '../../shared/format.js';
import { useCurrentPage, useGrant } from '../../shell/menus.js';
import { ConfigChanges } from './config-changes.js';
import { ConfigEditDialog } from './config-edit-dialog.js';
import { ShownValue } from './shown-value.js';
import { groupName, settingName, type ConfigEntry } from './config-words.js';

/**
 * System configuration (SYSTEM_CONFIG): every key with its description and value, a change per key
 * validated by the server (its refusals shown in words), and the change log of the settings.
 */
export default function ConfigPage() {
  const { t, lang } = useI18n();
  const page = useCurrentPage();
  const can = useGrant('SYSTEM_CONFIG');
  const [editing, setEditing] = useState<ConfigEntry | null>(null);
  const list = useQuery({
    queryKey: ['system-config', 'list'],
    queryFn: async () => unwrap<ConfigEntry[]>(await api.GET('/api/system/config', {})),
  });
  // A phone has room for one column: the setting, its key, its value and the change button stacked.
  const phone = Grid.useBreakpoint().md === false;
  const editButton = (r: ConfigEntry) =>
    can('UPDATE') ? (
      <Button size="small" onClick={() => setEditing(r)} aria-label={t('config.editOf', { name: r.configKey })}>
        {t('config.edit')}
      </Button>
    ) : null;
  const phoneColumns: TableProps<ConfigEntry>['columns'] = [
    {
      key: 'setting',
      title: t('config.setting'),
      render: (_: unknown, r) => (
        <>
          <div>{settingName(lang, r)}</div>
          <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
            {r.configKey}
          </Typography.Text>
          <Space className="full-width" style={{ justifyContent: 'space-between', marginTop: 4 }}>
            <ShownValue entry={r} />
            {editButton(r)}
          </Space>
        </>
      ),
    },
  ];
  const columns: TableProps<ConfigEntry>['columns'] = [
    { key: 'group', dataIndex: 'configGroup', title: t('config.group'), responsive: ['md'], render: (g: string) => groupName(lang, g) },
    {
      key: 'setting',
      title: t('config.setting'),
      render: (_: unknown, r) => (
        <>
          <div>{settingName(lang, r)}</div>
          {/* A long key breaks anywhere rather than widening the table past a phone's width. */}
          <Typography.Text type="secondary" className="config-key" style={{ overflowWrap: 'anywhere' }}>
            {r.configKey}
          </Typography.Text>
        </>
      ),
    },
    { key: 'value', title: t('config.value'), render: (_: unknown, r) => <ShownValue entry={r} /> },
    { key: 'updatedAt', dataIndex: 'updatedAt', title: t('config.updatedAt'), responsive: ['lg'], render: (v: string) => formatTimestamp(v) },
  ];
  if (can('UPDATE')) {
    columns.push({
      key: 'actions',
      title: t('config.actions'),
      render: (_: unknown, r) => editButton(r),
    });
  }
  return (
    <>
      {page && <PageTitle page={page} />}
      <Typography.Paragraph type="secondary">{t('config.intro')}</Typography.Paragraph>
      {list.error ? <ErrorNotice error={list.error} /> : null}
      <Table<ConfigEntry>
        rowKey="configKey"
        size="small"
        className="config-list"
        loading={list.isFetching}
        columns={phone ? phoneColumns : columns}
        dataSource={list.data ?? []}
        pagination={false}
      />
      {editing && <ConfigEditDialog entry={editing} onClose={() => setEditing(null)} />}
      <Card size="small" className="config-log" title={<h2 className="card-title">{t('config.log')}</h2>}>
        <ConfigChanges />
      </Card>
    </>
  );
}
