import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Space } from 'antd';
import { useNavigate } from 'react-router';
import { dynamicApi } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import { Loading } from '../shell/app-layout.js';
import { useI18n } from '../i18n/i18n.js';
import { useMyMenus, type PageMenu } from '../shell/menus.js';
import { ErrorNotice } from './error-notice.js';
import { FieldValue } from './field-value.js';
import { columnTitle, resolvePath, type ResourceMeta } from './meta.js';
import { useSectionLabel } from './resource-title.js';

type Row = Record<string, unknown>;

/** The API path of one row; path parameters come from the page URL's query (see resolvePath). */
export function itemPath(resource: ResourceMeta, id: string): string {
  const base = resolvePath(resource, new URLSearchParams(window.location.search)).path ?? resource.path;
  return `${base}/${encodeURIComponent(id)}`;
}

export function useRecord(resource: ResourceMeta, id: string, enabled = true) {
  return useQuery({
    queryKey: ['record', resource.path, id],
    enabled,
    queryFn: async () => unwrap<Row>(await dynamicApi.GET(itemPath(resource, id), {})),
  });
}

export function ResourceDetail({ resource, page, id }: { resource: ResourceMeta; page: PageMenu; id: string }) {
  const { t, errorText } = useI18n();
  const sectionLabel = useSectionLabel(resource, page);
  const { modal, message } = App.useApp();
  const { menus } = useMyMenus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const record = useRecord(resource, id);
  const granted = (g: ResourceMeta['permissions']['update']) => !!g && (menus?.can(g.menu, g.perm) ?? false);

  const remove = useMutation({
    mutationFn: async () => unwrap(await dynamicApi.DELETE(itemPath(resource, id), {})),
    onSuccess: async () => {
      void message.success(t('common.deleted'));
      await queryClient.invalidateQueries({ queryKey: ['list', resource.path] });
      await navigate(`/${page.path}`);
    },
    onError: (err) => void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err)),
  });

  const confirmDelete = () =>
    modal.confirm({
      title: t('common.confirmDelete'),
      content: t('common.confirmDeleteText'),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => remove.mutateAsync(),
    });

  if (record.isLoading) return <Loading />;
  if (record.error) return <ErrorNotice error={record.error} />;
  const row = record.data ?? {};

  return (
    <section className="resource-detail" aria-label={sectionLabel}>
      <Space className="detail-toolbar">
        <Button onClick={() => void navigate(-1)}>{t('common.back')}</Button>
        {granted(resource.permissions.update) && (
          <Button type="primary" icon={<EditOutlined />} onClick={() => void navigate(`/${page.path}/${encodeURIComponent(id)}/edit${window.location.search}`)}>
            {t('common.edit')}
          </Button>
        )}
        {granted(resource.permissions.delete) && (
          <Button danger icon={<DeleteOutlined />} onClick={confirmDelete} loading={remove.isPending}>
            {t('common.delete')}
          </Button>
        )}
      </Space>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        items={resource.fields
          .filter((f) => f.kind !== 'version')
          .map((f) => ({ key: f.key, label: columnTitle(f), children: <FieldValue field={f} value={row[f.key]} row={row} /> }))}
      />
    </section>
  );
}
