import { CheckOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Select, Space, Table, Typography, type TableProps } from 'antd';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.js';
import { ApiError, unwrap, type PageResponse } from '../../api/envelope.js';
import type { paths } from '../../api/schema';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { PAGE_SIZES, useListState } from '../../resources/url-state.js';
import { MonthInput, monthPattern } from '../../shared/month-input.js';
import { StatusTag } from '../../shared/status-tag.js';
import { useGrant } from '../../shell/menus.js';
import { useCompanies } from './intake-api.js';
import { ResolveDialog, type ResolveChoice } from './resolve-dialog.js';

export type ParseErrorRow = paths['/api/receive/errors']['get']['responses'][200]['content']['application/json']['data']['list'][number];

const ERROR_TYPES = ['INVALID_INPUT', 'UNKNOWN_TYPE', 'NO_MAPPING', 'JSON_PARSE', 'REQUIRED', 'TRANSFORM_FAIL', 'NO_POLICY', 'CONTRACT_NOT_FOUND', 'CODE_MAP_FAIL'];
const RESOLVE_STATUSES = ['OPEN', 'RESOLVED', 'IGNORED'];
const FILTER_KEYS = ['companyCode', 'settleMonth', 'errorType', 'resolveStatus', 'rawId'] as const;

/** The received record behind an error, field by field (raw_content is the row as JSON). */
export function RawRow({ row }: { row: ParseErrorRow }) {
  const { t } = useI18n();
  let content: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = row.rawContent ? JSON.parse(row.rawContent) : null;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) content = parsed as Record<string, unknown>;
  } catch {
    content = null;
  }
  return (
    <div className="raw-row" aria-label={t('intake.rawRowOf', { id: row.errorId })} role="group">
      <Typography.Text type="secondary">
        {t('intake.rawFrom', { file: row.fileName ?? '-', row: row.rowNumber ?? '-', type: row.dataType ?? '-' })}
      </Typography.Text>
      {content ? (
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 3 }}
          items={Object.entries(content).map(([key, value]) => ({
            key,
            label: key,
            children: <span className={row.errorValue !== null && String(value) === row.errorValue ? 'raw-error-value' : undefined}>{String(value ?? '')}</span>,
          }))}
        />
      ) : (
        <pre className="raw-text">{row.rawContent ?? '-'}</pre>
      )}
      {row.resolveNote && <Typography.Paragraph>{t('intake.note')}: {row.resolveNote}</Typography.Paragraph>}
    </div>
  );
}

interface Outcome {
  done: number;
  failures: string[];
}

/**
 * The parse-error workbench (receive/data, RECEIVE_DATA): errors filtered by carrier, month, type
 * and status; each error's raw row; resolve (re-parse after a fix) or ignore with a note, one by one
 * or for the selected rows. Every refusal of the server is listed with its code and words.
 */
export function ParseErrorWorkbench() {
  const { t, errorText, statusName } = useI18n();
  const can = useGrant('RECEIVE_DATA');
  const queryClient = useQueryClient();
  const state = useListState(FILTER_KEYS);
  const companies = useCompanies();
  const [form] = Form.useForm();
  const [selected, setSelected] = useState<ParseErrorRow[]>([]);
  const [resolving, setResolving] = useState<{ rows: ParseErrorRow[]; choice: ResolveChoice } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue({ ...state.query, errorType: state.query.errorType?.split(',') });
  }, [state.query, form]);

  const list = useQuery({
    queryKey: ['list', '/api/receive/errors', 'workbench', state.query],
    placeholderData: (previous) => previous,
    queryFn: async () =>
      unwrap<PageResponse<ParseErrorRow>>(await api.GET('/api/receive/errors', { params: { query: { pageSize: state.pageSize, ...state.query } as never } })),
  });

  const run = async (rows: ParseErrorRow[], choice: ResolveChoice, note: string) => {
    let done = 0;
    const failures: string[] = [];
    for (const row of rows) {
      try {
        unwrap(
          await api.POST('/api/receive/errors/{id}/resolve', {
            params: { path: { id: row.errorId } },
            body: note.trim() ? { status: choice, note: note.trim() } : { status: choice },
          }),
        );
        done += 1;
      } catch (err) {
        failures.push(
          err instanceof ApiError ? `#${row.errorId}: ${errorText(err.code, err.message)} (${err.code}) ${err.message}` : `#${row.errorId}: ${String(err)}`,
        );
      }
    }
    setOutcome({ done, failures });
    setSelected([]);
    setResolving(null);
    await queryClient.invalidateQueries({ queryKey: ['list', '/api/receive/errors'] });
    await queryClient.invalidateQueries({ queryKey: ['receive', 'status'] });
  };

  const open = (r: ParseErrorRow) => r.resolveStatus === 'OPEN';
  const columns: TableProps<ParseErrorRow>['columns'] = [
    { key: 'errorId', dataIndex: 'errorId', title: t('intake.errorId'), sorter: true },
    { key: 'companyCode', dataIndex: 'companyCode', title: t('intake.carrier'), sorter: true },
    { key: 'settleMonth', dataIndex: 'settleMonth', title: t('common.month'), sorter: true },
    { key: 'row', title: t('intake.row'), render: (_: unknown, r) => `${r.fileName ?? '-'} : ${r.rowNumber ?? '-'}` },
    { key: 'errorType', dataIndex: 'errorType', title: t('intake.errorType'), sorter: true, render: (v: string) => <StatusTag status={v} /> },
    { key: 'errorField', dataIndex: 'errorField', title: t('intake.field') },
    { key: 'errorValue', dataIndex: 'errorValue', title: t('intake.value') },
    { key: 'errorMessage', dataIndex: 'errorMessage', title: t('intake.message') },
    { key: 'resolveStatus', dataIndex: 'resolveStatus', title: t('common.status'), sorter: true, render: (v: string) => <StatusTag status={v} /> },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_: unknown, r) =>
        can('UPDATE') && open(r) ? (
          <Space size="small">
            <Button size="small" onClick={() => setResolving({ rows: [r], choice: 'RESOLVED' })} aria-label={t('intake.resolveRow', { id: r.errorId })}>
              {t('intake.resolve')}
            </Button>
            <Button size="small" onClick={() => setResolving({ rows: [r], choice: 'IGNORED' })} aria-label={t('intake.ignoreRow', { id: r.errorId })}>
              {t('intake.ignore')}
            </Button>
          </Space>
        ) : null,
    },
  ];

  const onChange: TableProps<ParseErrorRow>['onChange'] = (pagination, _f, sorter) => {
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

  const submit = (values: Record<string, unknown>) => {
    const patch: Record<string, string | undefined> = {};
    for (const key of [...FILTER_KEYS, 'searchKeyword']) {
      const v = values[key];
      patch[key] = Array.isArray(v) ? (v.length ? v.join(',') : undefined) : v == null || v === '' ? undefined : String(v);
    }
    state.update(patch);
  };

  return (
    <section className="parse-error-workbench" aria-label={t('intake.workbench')}>
      <Form form={form} layout="inline" className="filter-bar" role="search" name="parse-error-filters" onFinish={submit}>
        <Form.Item name="companyCode" label={t('intake.carrier')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            className="filter-select"
            options={(companies.data ?? []).map((c) => ({ value: c.companyCode, label: `${c.companyName} (${c.companyCode})` }))}
          />
        </Form.Item>
        <Form.Item name="settleMonth" label={t('common.month')} rules={[{ pattern: monthPattern, message: t('common.monthInvalid') }]}>
          <MonthInput />
        </Form.Item>
        <Form.Item name="errorType" label={t('intake.errorType')}>
          <Select mode="multiple" allowClear placeholder={t('common.all')} className="filter-select-wide" options={ERROR_TYPES.map((v) => ({ value: v, label: v }))} />
        </Form.Item>
        <Form.Item name="resolveStatus" label={t('common.status')}>
          <Select allowClear placeholder={t('common.all')} className="filter-select" options={RESOLVE_STATUSES.map((v) => ({ value: v, label: statusName(v) }))} />
        </Form.Item>
        <Form.Item name="searchKeyword" label={t('common.keyword')}>
          <Input allowClear />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
          <Button onClick={() => state.update(Object.fromEntries([...FILTER_KEYS, 'searchKeyword', 'sortField', 'sortOrder'].map((k) => [k, undefined])))}>
            {t('common.reset')}
          </Button>
        </Space>
      </Form>
      <Space className="list-toolbar" wrap>
        <Typography.Text>{t('common.total', { total: list.data?.total ?? 0 })}</Typography.Text>
        {can('UPDATE') && (
          <>
            <Button icon={<CheckOutlined />} disabled={selected.length === 0} onClick={() => setResolving({ rows: selected, choice: 'RESOLVED' })}>
              {t('intake.resolveSelected', { count: selected.length })}
            </Button>
            <Button icon={<StopOutlined />} disabled={selected.length === 0} onClick={() => setResolving({ rows: selected, choice: 'IGNORED' })}>
              {t('intake.ignoreSelected', { count: selected.length })}
            </Button>
          </>
        )}
      </Space>
      {outcome && (
        <Alert
          className="form-alert"
          type={outcome.failures.length ? 'warning' : 'success'}
          role={outcome.failures.length ? 'alert' : 'status'}
          showIcon
          closable={{ 'aria-label': t('common.close') }}
          onClose={() => setOutcome(null)}
          title={t('intake.outcome', { done: outcome.done, failed: outcome.failures.length })}
          description={outcome.failures.length ? <ul className="failure-list">{outcome.failures.map((f) => <li key={f}>{f}</li>)}</ul> : undefined}
        />
      )}
      {list.error ? <ErrorNotice error={list.error} /> : null}
      <Table<ParseErrorRow>
        rowKey="errorId"
        size="small"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.list ?? []}
        onChange={onChange}
        // Scrolled by its wrapper, not by `scroll.x`: the table's hidden measure row would copy the select-all checkbox.
        className="wide-table"
        expandable={{
          expandedRowRender: (r) => <RawRow row={r} />,
          expandIcon: ({ expanded, onExpand, record }) => (
            <Button
              size="small"
              type="text"
              aria-expanded={expanded}
              aria-label={t(expanded ? 'intake.hideRaw' : 'intake.showRaw', { id: record.errorId })}
              onClick={(e) => onExpand(record, e)}
            >
              {expanded ? '−' : '+'}
            </Button>
          ),
        }}
        rowSelection={
          can('UPDATE')
            ? {
                selectedRowKeys: selected.map((r) => r.errorId),
                onChange: (_keys, rows) => setSelected(rows),
                getCheckboxProps: (r) => ({ disabled: !open(r), 'aria-label': t('intake.selectRow', { id: r.errorId }) }) as never,
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
      {resolving && (
        <ResolveDialog
          count={resolving.rows.length}
          choice={resolving.choice}
          onCancel={() => setResolving(null)}
          onOk={(choice, note) => run(resolving.rows, choice, note)}
        />
      )}
    </section>
  );
}
