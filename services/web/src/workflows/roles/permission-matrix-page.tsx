import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Space, Table, Typography, type TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.js';
import { unwrap } from '../../api/envelope.js';
import type { paths } from '../../api/schema';
import { useI18n } from '../../i18n/i18n.js';
import { useCodeOptions } from '../../resources/codes.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { PageTitle } from '../../resources/resource-page.js';
import { Loading } from '../../shell/app-layout.js';
import { useCurrentPage, useGrant } from '../../shell/menus.js';
import { changedPairs, grantedPairs, grantsBody, pairKey, PERM_COLUMNS, toggleColumn, toggleRow, type MatrixMenu, type PermCode } from './permission-matrix.js';

type Matrix = paths['/api/roles/{id}/permissions']['get']['responses'][200]['content']['application/json']['data'];
/** The one role whose grants the server never lets anyone edit (B008). */
const LOCKED_ROLE = 'SUPER_ADMIN';

/**
 * The permission matrix of a role (system/roles, SYSTEM_ROLE): every menu (directories included, in
 * tree order) against the permission codes it offers. Edits stay local until saved; the save
 * replaces the role's grants through PUT /api/roles/{id}/permissions.
 */
export default function PermissionMatrixPage() {
  const { t, menuName } = useI18n();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const page = useCurrentPage();
  const can = useGrant('SYSTEM_ROLE');
  const queryClient = useQueryClient();
  const roleId = Number(useParams().roleId);
  const [edited, setEdited] = useState<Set<string> | null>(null);
  // Permission codes in words (common code PERM_CODE, in the UI language); the code until the names arrive.
  const permOptions = useCodeOptions('PERM_CODE');
  const permName = (perm: PermCode) => permOptions.find((o) => o.value === perm)?.label ?? perm;

  const matrix = useQuery({
    queryKey: ['roles', 'permissions', roleId],
    enabled: Number.isInteger(roleId),
    queryFn: async () => unwrap<Matrix>(await api.GET('/api/roles/{id}/permissions', { params: { path: { id: roleId } } })),
  });
  const menus = (matrix.data?.menus ?? []) as MatrixMenu[];
  const base = useMemo(() => grantedPairs(menus), [matrix.data]);
  const granted = edited ?? base;
  const changes = changedPairs(base, granted);
  const locked = matrix.data?.roleCode === LOCKED_ROLE;
  const editable = can('UPDATE') && !locked;

  const save = useMutation({
    mutationFn: async () => unwrap(await api.PUT('/api/roles/{id}/permissions', { params: { path: { id: roleId } }, body: grantsBody(menus, granted) })),
    onSuccess: async () => {
      void message.success(t('roles.saved', { count: changes.length }));
      await queryClient.invalidateQueries({ queryKey: ['roles', 'permissions', roleId] });
      // The signed-in user's own menu may have changed with the role.
      await queryClient.invalidateQueries({ queryKey: ['menus', 'my'] });
      setEdited(null);
    },
  });

  if (!Number.isInteger(roleId)) return <ErrorNotice error={new Error('role id')} />;
  if (matrix.isLoading) return <Loading />;
  if (matrix.error) return <ErrorNotice error={matrix.error} />;

  const set = (next: Set<string>) => setEdited(next);
  const cell = (menu: MatrixMenu, perm: PermCode) => {
    if (!menu.permissions.some((p) => p.permCode === perm)) return <span className="empty-value" aria-hidden="true">·</span>;
    const key = pairKey(menu.menuId, perm);
    const name = menuName(menu.menuCode, menu.menuName);
    return (
      <Checkbox
        aria-label={t('roles.cell', { menu: name, perm: permName(perm) })}
        disabled={!editable}
        checked={granted.has(key)}
        className={changes.includes(key) ? 'matrix-changed' : undefined}
        onChange={(e) => {
          const next = new Set(granted);
          if (e.target.checked) next.add(key);
          else next.delete(key);
          set(next);
        }}
      />
    );
  };

  const columns: TableProps<MatrixMenu>['columns'] = [
    {
      key: 'menu',
      title: t('roles.menu'),
      render: (_: unknown, m) => (
        <span className={m.menuType === 'DIRECTORY' ? 'matrix-dir' : undefined} style={{ paddingLeft: (Math.max(1, m.menuLevel) - 1) * 16 }}>
          {menuName(m.menuCode, m.menuName)}
          {!m.isActive && <Typography.Text type="secondary"> ({t('roles.inactive')})</Typography.Text>}
        </span>
      ),
    },
    ...PERM_COLUMNS.map((perm) => ({
      key: perm,
      align: 'center' as const,
      title: editable ? (
        <Button size="small" type="text" onClick={() => set(toggleColumn(granted, menus, perm))} aria-label={t('roles.toggleColumn', { perm: permName(perm) })}>
          {permName(perm)}
        </Button>
      ) : (
        permName(perm)
      ),
      render: (_: unknown, m: MatrixMenu) => cell(m, perm),
    })),
    ...(editable
      ? [
          {
            key: 'row',
            title: t('roles.all'),
            render: (_: unknown, m: MatrixMenu) =>
              m.permissions.length ? (
                <Button size="small" onClick={() => set(toggleRow(granted, m))} aria-label={t('roles.toggleRow', { menu: menuName(m.menuCode, m.menuName) })}>
                  {t('roles.all')}
                </Button>
              ) : null,
          },
        ]
      : []),
  ];

  const discard = () =>
    modal.confirm({
      title: t('roles.discardTitle'),
      content: t('roles.discardText', { count: changes.length }),
      okText: t('roles.discard'),
      cancelText: t('common.cancel'),
      onOk: () => setEdited(null),
    });

  return (
    <>
      {page && <PageTitle page={page} />}
      <Space className="list-toolbar" wrap>
        <Button onClick={() => void navigate('/system/roles')}>{t('common.back')}</Button>
        <Typography.Text strong className="matrix-role">
          {t('roles.matrixOf', { name: matrix.data?.roleName ?? '', code: matrix.data?.roleCode ?? '' })}
        </Typography.Text>
        {editable && (
          <>
            <Typography.Text role="status">{t('roles.changes', { count: changes.length })}</Typography.Text>
            <Button type="primary" disabled={changes.length === 0} loading={save.isPending} onClick={() => save.mutate()}>
              {t('common.save')}
            </Button>
            <Button disabled={changes.length === 0} onClick={discard}>
              {t('roles.discard')}
            </Button>
          </>
        )}
      </Space>
      {locked && <Alert type="info" showIcon className="form-alert" title={t('roles.locked')} />}
      {save.error ? <ErrorNotice error={save.error} /> : null}
      <Table<MatrixMenu>
        className="permission-matrix"
        rowKey="menuId"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={menus}
        // No horizontal scroll: its hidden measure row would copy the column toggles (focusable inside aria-hidden).
      />
    </>
  );
}
