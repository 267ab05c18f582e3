import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Statistic, Table, Typography, type TableProps } from 'antd';
import { useEffect, useState, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.js';
import { ApiError, unwrap, type PageResponse } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import { StatusTag } from '../shared/status-tag.js';
import { ErrorNotice } from '../resources/error-notice.js';
import { formatMoney, formatMonth } from '../shared/format.js';
import { MonthInput, monthPattern } from '../shared/month-input.js';
import { PageTitle } from '../resources/resource-page.js';
import { PAGE_SIZES, useListState } from '../resources/url-state.js';
import { useCurrentPage, useGrant } from '../shell/menus.js';
import { HoldDialog, type HoldValues } from './hold-dialog.js';
import {
  confirmSettle,
  confirmSettleMonth,
  holdSettle,
  releaseSettle,
  type SettleRow,
  type SettleSummary,
} from './settle-api.js';
import { calculatedOf } from './settle-month.js';
import { SETTLE_LIST_KEYS } from './settle-list-keys.js';

const STATUSES = ['CALCULATED', 'CONFIRMED', 'HOLD', 'PAID'] as const;
/** The selection column's width: the pinned agent column sticks right after it (styles.css "pinned-table" reads it). */
const SELECTION_WIDTH = 48;
const PINNED_STYLE = { '--selection-width': `${SELECTION_WIDTH}px` } as CSSProperties;
const SORTABLE = new Set(['settleId', 'agentId', 'agentName', 'settleMonth', 'grossAmount', 'netAmount']);

function money(key: keyof SettleRow, title: string): NonNullable<TableProps<SettleRow>['columns']>[number] {
  return {
    key,
    dataIndex: key,
    title: `${title} (원)`,
    align: 'right',
    sorter: SORTABLE.has(key),
    render: (v: string) => <span className="money">{formatMoney(v)}</span>,
  };
}

/** One cached summary per month, shared by the summary card and the month-wide confirm. */
function useSettleSummary(month: string | undefined) {
  return useQuery({
    queryKey: ['settle', 'summary', month],
    enabled: Boolean(month),
    queryFn: async () => unwrap<SettleSummary>(await api.GET('/api/settle/summary', { params: { query: { settleMonth: month! } } })),
  });
}

function Summary({ month }: { month: string }) {
  const { t, statusName } = useI18n();
  const summary = useSettleSummary(month);
  if (!summary.data) return null;
  const s = summary.data;
  const won = (key: Parameters<typeof t>[0]) => t('common.moneyTitle', { title: t(key) });
  return (
    <Card size="small" title={<h2 className="card-title">{`${t('settle.summary')} ${formatMonth(month)}`}</h2>} className="list-toolbar">
      <Space size="large" wrap>
        <Statistic title={t('common.rows')} value={s.count} />
        <Statistic title={won('settle.recruit')} value={formatMoney(s.totals.recruit)} />
        <Statistic title={won('settle.maintain')} value={formatMoney(s.totals.maintain)} />
        <Statistic title={won('settle.override')} value={formatMoney(s.totals.override)} />
        <Statistic title={won('settle.exceptionPlus')} value={formatMoney(s.totals.exceptionPlus)} />
        <Statistic title={won('settle.exceptionMinus')} value={formatMoney(s.totals.exceptionMinus)} />
        <Statistic title={won('settle.chargeback')} value={formatMoney(s.totals.chargeback)} />
        <Statistic title={won('settle.gross')} value={formatMoney(s.totals.gross)} />
        <Statistic title={won('settle.tax')} value={formatMoney(s.totals.tax)} />
        <Statistic title={won('settle.net')} value={formatMoney(s.totals.net)} />
        {s.byStatus.map((b) => (
          <Statistic key={b.status} title={statusName(b.status)} value={b.count} />
        ))}
      </Space>
    </Card>
  );
}

export default function SettleListPage() {
  const { t, errorText, statusName } = useI18n();
  const { message, modal } = App.useApp();
  const page = useCurrentPage();
  const can = useGrant('SETTLE_LIST');
  const queryClient = useQueryClient();
  const state = useListState(SETTLE_LIST_KEYS);
  const [form] = Form.useForm();
  const [selected, setSelected] = useState<SettleRow[]>([]);
  const [holding, setHolding] = useState<SettleRow[] | null>(null);
  const approve = can('APPROVE');
  const month = state.query.settleMonth;
  const summary = useSettleSummary(month);
  const calculated = calculatedOf(summary.data);

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(state.query);
  }, [state.query, form]);

  const list = useQuery({
    queryKey: ['settle', 'list', state.query],
    placeholderData: (previous) => previous,
    queryFn: async () =>
      unwrap<PageResponse<SettleRow>>(
        await api.GET('/api/settle', { params: { query: { pageSize: state.pageSize, ...state.query } as never } }),
      ),
  });

  /** One call per row; the result says how many went through and names the first refusal. */
  const runAll = async (rows: SettleRow[], action: (row: SettleRow) => Promise<void>) => {
    let ok = 0;
    const failures: string[] = [];
    for (const row of rows) {
      try {
        await action(row);
        ok += 1;
      } catch (err) {
        failures.push(err instanceof ApiError ? `${row.agentName ?? row.agentId}: ${errorText(err.code, err.message)} (${err.code})` : String(err));
      }
    }
    if (failures.length) void message.error(t('settle.partial', { ok, failed: failures.length, first: failures[0]! }));
    else void message.success(t('settle.done', { count: ok }));
    setSelected([]);
    await queryClient.invalidateQueries({ queryKey: ['settle'] });
  };

  /** The server confirms the month in one transaction; the dialog names what it will take. */
  const confirmMonth = () => {
    if (!month) return;
    const net = formatMoney(calculated.net);
    modal.confirm({
      title: t('settle.confirmMonthTitle', { month: formatMonth(month) }),
      content: t('settle.confirmMonthText', { month: formatMonth(month), count: calculated.count, net }),
      okText: t('settle.confirmMonthOk', { count: calculated.count }),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const r = await confirmSettleMonth(month);
          void message.success(
            t('settle.confirmMonthDone', {
              month: formatMonth(r.settleMonth),
              confirmed: r.confirmed,
              hold: r.skippedHold,
              dispute: r.skippedDispute,
              already: r.alreadyConfirmed,
              paid: r.alreadyPaid,
            }),
          );
        } catch (err) {
          // The server's own words: a closed month (B001) says which month and why.
          void message.error(
            err instanceof ApiError ? t('settle.confirmMonthFailed', { message: errorText(err.code, err.message), code: err.code }) : String(err),
          );
        }
        setSelected([]);
        await queryClient.invalidateQueries({ queryKey: ['settle'] });
      },
    });
  };

  const hold = async (values: HoldValues) => {
    await runAll(holding ?? [], (row) => holdSettle(row.settleId, values.reason, values.reasonCode));
    setHolding(null);
  };

  // Agent and actions stay in view while the parts scroll (from md up; on a phone there is no room to pin both).
  // Pinned by CSS (position: sticky, styles.css "pinned-table"), not by antd's fixed columns: those make the
  // table measure every column after the first render and render again in the same task (web bench A/B of
  // cold loads: p50 0.84x without them).
  const columns: TableProps<SettleRow>['columns'] = [
    {
      key: 'agentName',
      dataIndex: 'agentName',
      title: t('settle.agent'),
      sorter: true,
      className: 'pin-left',
      render: (_: unknown, row) => (
        <Link to={`/org/agents/${row.agentId}`} className="nowrap">
          {row.agentName ?? row.agentId}
        </Link>
      ),
    },
    { key: 'orgName', dataIndex: 'orgName', title: t('settle.org'), className: 'nowrap' },
    { key: 'settleMonth', dataIndex: 'settleMonth', title: t('common.month'), sorter: true, className: 'nowrap', render: (m: string) => formatMonth(m) },
    money('recruitTotal', t('settle.recruit')),
    money('maintainTotal', t('settle.maintain')),
    money('overrideTotal', t('settle.override')),
    money('otherTotal', t('settle.other')),
    money('correctionTotal', t('settle.correction')),
    money('exceptionPlus', t('settle.exceptionPlus')),
    money('exceptionMinus', t('settle.exceptionMinus')),
    money('chargebackTotal', t('settle.chargeback')),
    money('grossAmount', t('settle.gross')),
    money('taxAmount', t('settle.tax')),
    money('netAmount', t('settle.net')),
    {
      key: 'status',
      dataIndex: 'status',
      title: t('common.status'),
      width: 200,
      render: (s: string, row) => (
        <span className="status-cell">
          <StatusTag status={s} />
          {row.holdReason && (
            <Typography.Text type="secondary" ellipsis={{ tooltip: row.holdReason }} className="hold-reason">
              {row.holdReason}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      className: 'pin-right',
      render: (_: unknown, row) => (
        <Space size="small">
          <Link to={`/settle/explain/${row.settleId}`} aria-label={`${t('settle.explain')} ${row.agentName ?? row.agentId}`}>
            {t('settle.explain')}
          </Link>
          {approve && row.status === 'CALCULATED' && (
            <Button size="small" onClick={() => void runAll([row], (r) => confirmSettle(r.settleId))}>
              {t('settle.confirm')}
            </Button>
          )}
          {approve && (row.status === 'CALCULATED' || row.status === 'CONFIRMED') && (
            <Button size="small" danger onClick={() => setHolding([row])}>
              {t('settle.hold')}
            </Button>
          )}
          {approve && row.status === 'HOLD' && (
            <Button size="small" onClick={() => void runAll([row], (r) => releaseSettle(r.settleId))}>
              {t('settle.release')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const onChange: TableProps<SettleRow>['onChange'] = (pagination, _f, sorter) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    state.update(
      {
        pageNum: pagination.current ?? 1,
        pageSize: pagination.pageSize ?? 20,
        sortField: one?.order ? String(one.columnKey) : undefined,
        sortOrder: one?.order ? (one.order === 'descend' ? 'DESC' : 'ASC') : undefined,
      },
      { keepPage: true },
    );
  };

  const confirmable = selected.filter((r) => r.status === 'CALCULATED');
  const holdable = selected.filter((r) => r.status === 'CALCULATED' || r.status === 'CONFIRMED');

  return (
    <>
      {page && <PageTitle page={page} />}
      <Form form={form} layout="inline" className="filter-bar" role="search" name="settle-filters" onFinish={(v) => state.update(v)}>
        <Form.Item name="settleMonth" label={t('common.month')} rules={[{ pattern: monthPattern, message: t('common.monthInvalid') }]}>
          <MonthInput />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')}>
          <Select allowClear placeholder={t('common.all')} className="filter-select" options={STATUSES.map((s) => ({ value: s, label: statusName(s) }))} />
        </Form.Item>
        <Form.Item name="agentId" label={t('settle.agentId')}>
          <Input inputMode="numeric" />
        </Form.Item>
        <Form.Item name="searchKeyword" label={t('common.keyword')}>
          <Input allowClear />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
          <Button onClick={state.reset}>{t('common.reset')}</Button>
        </Space>
      </Form>
      {month && <Summary month={month} />}
      <Space className="list-toolbar" wrap>
        <Typography.Text>{t('common.total', { total: list.data?.total ?? 0 })}</Typography.Text>
        {approve && (
          <>
            <Button
              type="primary"
              disabled={confirmable.length === 0}
              onClick={() => void runAll(confirmable, (r) => confirmSettle(r.settleId))}
            >
              {t('settle.confirmSelected', { count: confirmable.length })}
            </Button>
            <Button danger disabled={holdable.length === 0} onClick={() => setHolding(holdable)}>
              {t('settle.holdSelected', { count: holdable.length })}
            </Button>
            <Button disabled={!month || calculated.count === 0} onClick={confirmMonth}>
              {t('settle.confirmMonth')}
            </Button>
          </>
        )}
      </Space>
      {list.error ? <ErrorNotice error={list.error} /> : null}
      <Table<SettleRow>
        rowKey="settleId"
        size="small"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.list ?? []}
        onChange={onChange}
        className={`wide-table compact-table pinned-table${approve ? ' with-selection' : ''}`}
        style={PINNED_STYLE}
        rowSelection={
          approve
            ? {
                selectedRowKeys: selected.map((r) => r.settleId),
                onChange: (_keys, rows) => setSelected(rows),
                columnWidth: SELECTION_WIDTH,
                getCheckboxProps: (row) => ({ 'aria-label': t('settle.selectRow', { name: row.agentName ?? row.agentId }) }) as never,
              }
            : undefined
        }
        pagination={{
          current: state.pageNum,
          pageSize: state.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
        }}
      />
      <HoldDialog open={holding !== null} count={holding?.length ?? 0} onOk={hold} onCancel={() => setHolding(null)} />
    </>
  );
}
