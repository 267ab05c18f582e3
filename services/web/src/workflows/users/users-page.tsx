import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { api } from '../../api/client.js';
import { ApiError, unwrap, type PageResponse } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { placeFieldErrors } from '../../resources/field-errors.js';
import ResourcePage from '../../resources/resource-page.js';
import { useGrant } from '../../shell/menus.js';

interface NewUser {
  loginId: string;
  userName: string;
  password: string;
  roleIds?: number[];
  email?: string;
  phone?: string;
}

interface UserRow {
  userId: number;
  userName: string;
  status: string;
}

function useRoleOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['roles', 'options'],
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async () =>
      unwrap<PageResponse<{ roleId: number; roleName: string; isActive: boolean }>>(
        await api.GET('/api/roles', { params: { query: { pageSize: 100 } as never } }),
      ).list,
  });
}

/** Create a user with its roles and an initial password (the user changes it at first sign-in). */
function NewUserButton() {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const can = useGrant('SYSTEM_USER');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<NewUser>();
  const roles = useRoleOptions(open);
  if (!can('CREATE')) return null;

  const save = async () => {
    let values: NewUser;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      unwrap(await api.POST('/api/users', { body: { ...values, roleIds: values.roleIds ?? [] } as never }));
      void message.success(t('users.created', { name: values.userName }));
      setOpen(false);
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: ['list'] });
    } catch (err) {
      if (err instanceof ApiError) placeFieldErrors(form, err, ['loginId', 'userName', 'password', 'roleIds', 'email', 'phone']);
      void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} className="list-toolbar" onClick={() => setOpen(true)}>
        {t('users.new')}
      </Button>
      <Modal open={open} title={t('users.new')} okText={t('common.save')} cancelText={t('common.cancel')} confirmLoading={saving} onOk={() => void save()} onCancel={() => setOpen(false)} destroyOnHidden>
        <Form form={form} layout="vertical" name="new-user">
          <Form.Item name="loginId" label={t('users.loginId')} rules={[{ required: true, whitespace: true, message: t('common.required') }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="userName" label={t('users.name')} rules={[{ required: true, whitespace: true, message: t('common.required') }]}>
            <Input />
          </Form.Item>
          <Form.Item name="password" label={t('users.password')} extra={t('users.passwordHelp')} rules={[{ required: true, message: t('common.required') }]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="roleIds" label={t('users.roles')}>
            <Select
              mode="multiple"
              loading={roles.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              options={(roles.data ?? []).filter((r) => r.isActive).map((r) => ({ value: r.roleId, label: r.roleName }))}
            />
          </Form.Item>
          <Form.Item name="email" label={t('users.email')}>
            <Input type="email" />
          </Form.Item>
          <Form.Item name="phone" label={t('users.phone')}>
            <Input />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** Reset password (the temporary one shown once), unlock a locked user, deactivate. */
function UserActions({ row }: { row: UserRow }) {
  const { t, errorText } = useI18n();
  const { message, modal } = App.useApp();
  const can = useGrant('SYSTEM_USER');
  const queryClient = useQueryClient();
  if (!can('UPDATE')) return null;
  const name = row.userName;
  const fail = (err: unknown) => void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['list'] });

  const reset = () =>
    modal.confirm({
      title: t('users.resetTitle', { name }),
      content: t('users.resetText'),
      okText: t('users.resetPassword'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const r = unwrap<{ temporaryPassword?: string }>(await api.POST('/api/users/{id}/password-reset', { params: { path: { id: row.userId } }, body: {} }));
          modal.info({
            title: t('users.temporary', { name }),
            content: (
              <>
                <Typography.Paragraph copyable code className="temporary-password">
                  {r.temporaryPassword ?? ''}
                </Typography.Paragraph>
                <Typography.Paragraph>{t('users.temporaryText')}</Typography.Paragraph>
              </>
            ),
            okText: t('common.close'),
          });
          await refresh();
        } catch (err) {
          fail(err);
        }
      },
    });
  const unlock = async () => {
    try {
      unwrap(await api.POST('/api/users/{id}/unlock', { params: { path: { id: row.userId } } }));
      void message.success(t('users.unlocked', { name }));
      await refresh();
    } catch (err) {
      fail(err);
    }
  };
  const deactivate = () =>
    modal.confirm({
      title: t('users.deactivateTitle', { name }),
      content: t('users.deactivateText'),
      okText: t('users.deactivate'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          unwrap(await api.PUT('/api/users/{id}', { params: { path: { id: row.userId } }, body: { status: 'RETIRED' } }));
          void message.success(t('users.deactivated', { name }));
          await refresh();
        } catch (err) {
          fail(err);
        }
      },
    });

  return (
    <Space size="small" className="nowrap">
      <Button size="small" onClick={reset}>
        {t('users.resetPassword')}
      </Button>
      {row.status === 'LOCKED' && (
        <Button size="small" onClick={() => void unlock()}>
          {t('users.unlock')}
        </Button>
      )}
      {row.status !== 'RETIRED' && (
        <Button size="small" danger onClick={deactivate}>
          {t('users.deactivate')}
        </Button>
      )}
    </Space>
  );
}

/** System users: the generic list with creation, password reset, unlock and deactivation. */
export default function UsersPage() {
  return (
    <ResourcePage
      above={() => <NewUserButton />}
      rowActions={(resource, row) =>
        resource.path === '/api/users' && typeof row.userId === 'number' ? (
          <UserActions row={{ userId: row.userId, userName: String(row.userName ?? row.loginId ?? ''), status: String(row.status ?? '') }} />
        ) : null
      }
    />
  );
}
