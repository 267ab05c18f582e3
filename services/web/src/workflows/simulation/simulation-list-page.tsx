import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Grid, Input, Pagination, Space, Table, Typography, type TableProps } from 'antd';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { PageTitle } from '../../resources/resource-page.js';
import { PAGE_SIZES, useListState } from '../../resources/url-state.js';
import { formatMonth, formatTimestamp } from '../../shared/format.js';
import { MonthInput } from '../../shared/month-input.js';
import { useCurrentPage, useGrant } from '../../shell/menus.js';
import { deleteSimulation, listSimulations, type SimulationRow } from './simulation-api.js';
import { RunProgress, ScopeText, SimStatusTag } from './simulation-bits.js';
import { isActive, isChangeable } from './simulation-model.js';
import './simulation.css';

const EXTRA_KEYS = ['name', 'baseMonth'] as const;
const SORTABLE = new Set(['id', 'name', 'baseMonth', 'createdAt']);

/** What-if simulations: each a base month re-run under proposed rule changes, without touching real data. */
export default function SimulationListPage() {
  const { t, errorText } = useI18n();
  const { message, modal } = App.useApp();
  const page = useCurrentPage();
  const can = useGrant('SIMULATION');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useListState(EXTRA_KEYS);
  const phone = Grid.useBreakpoint().md === false;
  const base = page ? `/${page.path}` : '/rules/simulations';

  const query: Record<string, string | number> = { pageNum: state.pageNum, pageSize: state.pageSize };
  if (state.sortField && SORTABLE.has(state.sortField)) {
    query.sortField = state.sortField;
    query.sortOrder = state.sortOrder ?? 'DESC';
  }
  if (state.query.name) query.name = state.query.name;
  if (state.query.baseMonth) query.baseMonth = state.query.baseMonth;
  if (state.query.status) query.status = state.query.status;

  const list = useQuery({
    queryKey: ['simulations', 'list', query],
    placeholderData: (previous) => previous,
    queryFn: () => listSimulations(query),
    // A running simulation's bar moves on the list too.
    refetchInterval: (q) => (q.state.data?.list.some((r) => isActive(r.status)) ? 2000 : false),
  });

  const remove = (row: SimulationRow) =>
    modal.confirm({
      title: t('sim.deleteTitle', { name: row.name }),
      content: t('sim.deleteText'),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await deleteSimulation(row.id);
          void message.success(t('sim.deleted', { name: row.name }));
          await queryClient.invalidateQueries({ queryKey: ['simulations'] });
        } catch (err) {
          void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err));
        }
      },
    });

  const deleteButton = (row: SimulationRow) =>
    can('DELETE') && isChangeable(row.status) ? (
      <Button size="small" danger icon={<DeleteOutlined />} onClick={() => remove(row)} aria-label={t('sim.deleteOf', { name: row.name })}>
        {t('common.delete')}
      </Button>
    ) : null;

  const columns: TableProps<SimulationRow>['columns'] = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('sim.name'),
      sorter: true,
      sortOrder: state.sortField === 'name' ? (state.sortOrder === 'ASC' ? 'ascend' : 'descend') : null,
      render: (_: unknown, row) => <Link to={`${base}/${row.id}`}>{row.name}</Link>,
    },
    {
      key: 'baseMonth',
      dataIndex: 'baseMonth',
      title: t('sim.baseMonth'),
      sorter: true,
      className: 'nowrap',
      sortOrder: state.sortField === 'baseMonth' ? (state.sortOrder === 'ASC' ? 'ascend' : 'descend') : null,
      render: (m: string) => formatMonth(m),
    },
    { key: 'scope', title: t('sim.scope'), render: (_: unknown, row) => <ScopeText row={row} /> },
    { key: 'changeCount', dataIndex: 'changeCount', title: t('sim.changeCount'), align: 'right' },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('common.status'),
      width: 240,
      render: (_: unknown, row) => (
        <>
          <SimStatusTag status={row.status} />
          <RunProgress row={row} compact />
        </>
      ),
    },
    { key: 'createdByName', dataIndex: 'createdByName', title: t('sim.createdBy'), render: (v: string | null) => v ?? '-' },
    {
      key: 'createdAt',
      dataIndex: 'createdAt',
      title: t('sim.createdAt'),
      sorter: true,
      className: 'nowrap',
      sortOrder: state.sortField === 'createdAt' ? (state.sortOrder === 'ASC' ? 'ascend' : 'descend') : null,
      render: (v: string) => formatTimestamp(v),
    },
    ...(can('DELETE') ? [{ key: 'actions', title: t('common.actions'), render: (_: unknown, row: SimulationRow) => deleteButton(row) }] : []),
  ];

  const rows = list.data?.list ?? [];
  const pager = (
    <Pagination
      current={state.pageNum}
      pageSize={state.pageSize}
      total={list.data?.total ?? 0}
      pageSizeOptions={PAGE_SIZES.map(String)}
      showSizeChanger={!phone}
      simple={phone}
      onChange={(pageNum, pageSize) => state.update({ pageNum, pageSize }, { keepPage: true })}
    />
  );

  return (
    <>
      {page && <PageTitle page={page} />}
      <Typography.Paragraph type="secondary">{t('sim.intro')}</Typography.Paragraph>
      <Space wrap className="list-toolbar">
        <Input.Search
          allowClear
          defaultValue={state.query.name}
          placeholder={t('sim.searchName')}
          aria-label={t('sim.searchName')}
          onSearch={(v) => state.update({ name: v })}
          style={{ width: 220 }}
        />
        <MonthInput value={state.query.baseMonth} onChange={(v) => state.update({ baseMonth: v })} aria-label={t('sim.baseMonth')} />
        {can('CREATE') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(`${base}/new`)}>
            {t('sim.new')}
          </Button>
        )}
      </Space>
      {list.error ? <ErrorNotice error={list.error} /> : null}
      {phone ? (
        <div className="sim-cards" aria-label={t('sim.listLabel')}>
          {rows.length === 0 && !list.isFetching ? <Empty description={t('sim.none')} /> : null}
          {rows.map((row) => (
            <Card key={row.id} size="small" className="sim-card" title={<Link to={`${base}/${row.id}`}>{row.name}</Link>} extra={<SimStatusTag status={row.status} />}>
              <div className="sim-card-line">
                <span>{formatMonth(row.baseMonth)}</span>
                <span>
                  <ScopeText row={row} />
                </span>
              </div>
              <RunProgress row={row} compact />
              <div className="sim-card-line">
                <Typography.Text type="secondary">
                  {row.createdByName ?? '-'} · {formatTimestamp(row.createdAt)}
                </Typography.Text>
                {deleteButton(row)}
              </div>
            </Card>
          ))}
          {pager}
        </div>
      ) : (
        <>
          <Table<SimulationRow>
            rowKey="id"
            size="small"
            className="sim-list"
            loading={list.isFetching}
            columns={columns}
            dataSource={rows}
            locale={{ emptyText: <span className="sim-empty">{t('sim.none')}</span> }}
            pagination={false}
            scroll={{ x: 'max-content' }}
            onChange={(_p, _f, sorter) => {
              const s = Array.isArray(sorter) ? sorter[0] : sorter;
              const field = s?.order && typeof s.columnKey === 'string' && SORTABLE.has(s.columnKey) ? s.columnKey : undefined;
              state.update({ sortField: field, sortOrder: field ? (s?.order === 'ascend' ? 'ASC' : 'DESC') : undefined });
            }}
          />
          <div className="sim-pager">{pager}</div>
        </>
      )}
    </>
  );
}
