import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Table, Typography, type TableProps } from 'antd';
import { useMemo, type MouseEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { downloadFile, dynamicApi } from '../api/client.js';
import { ApiError, unwrap, type PageResponse } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import { useMyMenus, type PageMenu } from '../shell/menus.js';
import { ErrorNotice } from './error-notice.js';
import { FieldValue, isNumericKind } from './field-value.js';
import { FilterBar, filterKeys } from './filter-bar.js';
import { listColumns } from '../shared/list-columns.js';
import { columnTitle, displayKind, fieldLabel, idField, resolvePath, rowPath, type FieldMeta, type ResourceMeta } from './meta.js';
import { useSectionLabel } from './resource-title.js';
import { exportHref, PAGE_SIZES, useListState } from './url-state.js';

type Row = Record<string, unknown>;

export function ResourceList({
  resource,
  page,
  rowActions,
}: {
  resource: ResourceMeta;
  page: PageMenu;
  rowActions?: ((resource: ResourceMeta, row: Row) => ReactNode) | undefined;
}) {
  const { t, errorText, lang } = useI18n();
  const sectionLabel = useSectionLabel(resource, page);
  const { message } = App.useApp();
  const { menus } = useMyMenus();
  const navigate = useNavigate();
  const extraKeys = useMemo(() => filterKeys(resource), [resource]);
  const state = useListState(extraKeys);
  const id = idField(resource);
  const granted = (g: ResourceMeta['permissions']['create']) => !!g && (menus?.can(g.menu, g.perm) ?? false);

  const [search] = useSearchParams();
  const target = resolvePath(resource, search);
  // Detail and form links keep the path parameters and the chosen tab of a page with several resources.
  const carryParams = new URLSearchParams(target.carry.slice(1));
  if (search.get('resource')) carryParams.set('resource', search.get('resource')!);
  const carry = carryParams.size ? `?${carryParams.toString()}` : '';
  const list = useQuery({
    queryKey: ['list', resource.path, target.path, state.query],
    enabled: target.path !== undefined,
    placeholderData: (previous) => previous,
    queryFn: async () =>
      unwrap<PageResponse<Row>>(await dynamicApi.GET(target.path!, { params: { query: { pageSize: state.pageSize, ...state.query } } })),
  });

  const columns: TableProps<Row>['columns'] = listColumns(resource).map((f, i) => ({
    key: f.key,
    dataIndex: f.key,
    title: columnTitle(f, lang),
    align: isNumericKind(displayKind(f)) ? 'right' : undefined,
    sorter: f.sort,
    sortOrder: state.sortField === f.key ? (state.sortOrder === 'DESC' ? 'descend' : 'ascend') : null,
    render: (value: unknown, row: Row) =>
      id && i === 0 && granted(resource.permissions.detail) ? (
        <Link to={rowPath(page.path, row[id.key], carry)}>
          <FieldValue field={f} value={value} row={row} link={false} />
        </Link>
      ) : (
        <FieldValue field={f} value={value} row={row} />
      ),
  }));

  if (rowActions) {
    // Kept in view at the right edge of a wide (scrolled) table.
    columns.push({ key: '__actions', title: t('common.actions'), fixed: 'right', render: (_: unknown, row: Row) => rowActions(resource, row) });
  }

  const onChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const sortField = one?.order ? String(one.columnKey ?? one.field) : undefined;
    state.update(
      {
        pageNum: pagination.current ?? 1,
        pageSize: pagination.pageSize ?? 20,
        sortField,
        sortOrder: one?.order ? (one.order === 'descend' ? 'DESC' : 'ASC') : undefined,
      },
      { keepPage: true },
    );
  };

  const href = exportHref(target.path ?? resource.path, state.query);
  const exportFile = async (event: MouseEvent) => {
    event.preventDefault();
    try {
      await downloadFile(href, `${resource.name}.xlsx`);
    } catch (err) {
      void message.error(err instanceof ApiError ? errorText(err.code, err.message) : String(err));
    }
  };

  return (
    <section className="resource-list" aria-label={sectionLabel}>
      <FilterBar resource={resource} state={state} />
      <Space className="list-toolbar">
        <Typography.Text>{t('common.total', { total: list.data?.total ?? 0 })}</Typography.Text>
        {granted(resource.permissions.create) && target.path && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(`/${page.path}/new${carry}`)}>
            {t('common.create')}
          </Button>
        )}
        {granted(resource.permissions.export) && target.path && (
          <a href={href} onClick={exportFile} className="export-link">
            <DownloadOutlined /> {t('common.export')}
          </a>
        )}
      </Space>
      {target.missing.length > 0 && (
        <Alert
          type="info"
          showIcon
          title={`${target.missing.map((n) => fieldLabel(resource.fields.find((f) => f.key === n) ?? { key: n } as FieldMeta)).join(', ')}: ${t('common.search')}`}
        />
      )}
      {list.error ? <ErrorNotice error={list.error} /> : null}
      <Table<Row>
        rowKey={(row) => String(id ? row[id.key] : JSON.stringify(row))}
        size="small"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.list ?? []}
        onChange={onChange}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: state.pageNum,
          pageSize: state.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
        }}
      />
    </section>
  );
}
