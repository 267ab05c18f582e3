import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Table, Tag, type TableProps } from 'antd';
import { dynamicApi } from '../../api/client.js';
import { unwrap, type PageResponse } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { todayText } from '../org/org-api.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { FieldValue } from '../../resources/field-value.js';
import { fieldLabel, type FieldMeta, type ResourceMeta } from '../../resources/meta.js';
import { validityOn, versionsOf, type RuleKind, type Validity } from './rule-kinds.js';

type Row = Record<string, unknown>;
const MAX_VERSIONS = 100;

function field(resource: ResourceMeta, key: string): FieldMeta {
  return resource.fields.find((f) => f.key === key) ?? { key, kind: 'text', sort: false, search: false, save: false, required: false, readOnly: true };
}

/** The list query of one rule's versions: its key fields that the list can filter on; the rest is matched here. */
export function versionQuery(kind: RuleKind, resource: ResourceMeta, of: Row): Record<string, string | number> {
  const query: Record<string, string | number> = { pageSize: MAX_VERSIONS, sortField: 'effectiveFrom', sortOrder: 'ASC' };
  for (const key of kind.key) {
    const f = resource.fields.find((x) => x.key === key);
    if (f?.filter === 'eq' && of[key] != null) query[key] = String(of[key]);
  }
  return query;
}

/** Every version of the rule a row belongs to, with its effective period, oldest first. */
export function RuleHistoryDrawer({
  kind,
  resource,
  of,
  idKey,
  canRevise,
  onRevise,
  onClose,
}: {
  kind: RuleKind;
  resource: ResourceMeta;
  of: Row;
  idKey: string;
  canRevise: boolean;
  onRevise(row: Row): void;
  onClose(): void;
}) {
  const { t } = useI18n();
  const query = versionQuery(kind, resource, of);
  const list = useQuery({
    queryKey: ['list', resource.path, 'versions', query],
    queryFn: async () => unwrap<PageResponse<Row>>(await dynamicApi.GET(resource.path, { params: { query } })),
  });
  const versions = versionsOf(kind, list.data?.list ?? [], of);
  const today = todayText();
  const tone: Record<Validity, string> = { current: 'status-good', future: 'status-busy', ended: 'status-plain' };

  const columns: TableProps<Row>['columns'] = [
    { key: 'version', dataIndex: 'version', title: t('rules.version') },
    { key: 'from', dataIndex: 'effectiveFrom', title: fieldLabel(field(resource, 'effectiveFrom')) },
    { key: 'to', dataIndex: 'effectiveTo', title: fieldLabel(field(resource, 'effectiveTo')), render: (v: unknown) => (v == null ? t('rules.open') : String(v)) },
    ...kind.values.map((key) => ({
      key,
      dataIndex: key,
      title: fieldLabel(field(resource, key)),
      render: (v: unknown) => <FieldValue field={field(resource, key)} value={v} />,
    })),
    {
      key: 'validity',
      title: t('rules.validity'),
      render: (_: unknown, row: Row) => {
        const v = validityOn(row, today);
        return <Tag className={`status-tag ${tone[v]}`}>{t(`rules.${v}`)}</Tag>;
      },
    },
    ...(canRevise
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_: unknown, row: Row) => (
              <Button size="small" onClick={() => onRevise(row)} aria-label={t('rules.reviseRow', { id: String(row[idKey]) })}>
                {t('rules.revise')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <Drawer open size="large" title={t('rules.historyTitle')} onClose={onClose} className="rule-history">
      <Descriptions
        size="small"
        column={1}
        className="list-toolbar"
        items={kind.key.map((key) => ({ key, label: fieldLabel(field(resource, key)), children: <FieldValue field={field(resource, key)} value={of[key]} /> }))}
      />
      {list.error ? <ErrorNotice error={list.error} /> : null}
      <Table<Row>
        className="rule-versions"
        rowKey={(row) => String(row[idKey])}
        size="small"
        loading={list.isFetching}
        columns={columns}
        dataSource={versions}
        rowClassName={(row) => (row[idKey] === of[idKey] ? 'row-selected' : '')}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
    </Drawer>
  );
}
