import { BellOutlined, DownOutlined, UserOutlined } from '@ant-design/icons';
import { Badge, Button, Dropdown, Layout, List, Popover, Segmented, Space, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client.js';
import { unwrap, type PageResponse } from '../api/envelope.js';
import { useAuth } from '../auth/auth.js';
import { useI18n, type Lang } from '../i18n/i18n.js';

const PasswordDialog = lazy(() => import('../auth/password-dialog.js'));

interface Notification {
  notiId: number;
  notiType: string;
  title: string;
  content: string | null;
  linkUrl: string | null;
  isRead: boolean;
  createdAt: string;
}

function Notifications() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const count = useQuery({
    queryKey: ['notifications', 'unread'],
    refetchInterval: 60_000,
    queryFn: async () => unwrap<number>(await api.GET('/api/notifications/unread-count')),
  });
  const [open, setOpen] = useState(false);
  const list = useQuery({
    queryKey: ['notifications', 'list'],
    enabled: open,
    queryFn: async () =>
      unwrap<PageResponse<Notification>>(await api.GET('/api/notifications', { params: { query: { pageSize: 10 } } })),
  });
  const readAll = useMutation({
    mutationFn: async () => unwrap(await api.PUT('/api/notifications/read-all')),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
  const content = (
    <div className="notifications">
      <List<Notification>
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: t('shell.noNotifications') }}
        renderItem={(n) => (
          <List.Item
            onClick={() => {
              setOpen(false);
              if (n.linkUrl?.startsWith('/')) void navigate(n.linkUrl);
            }}
          >
            <List.Item.Meta title={n.isRead ? n.title : <strong>{n.title}</strong>} description={n.content} />
          </List.Item>
        )}
      />
      <Button size="small" onClick={() => readAll.mutate()} disabled={!count.data}>
        {t('shell.markAllRead')}
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" open={open} onOpenChange={setOpen} content={content} title={t('shell.notifications')}>
      <Badge count={count.data ?? 0} size="small">
        <Button type="text" icon={<BellOutlined />} aria-label={`${t('shell.notifications')} (${count.data ?? 0})`} />
      </Badge>
    </Popover>
  );
}

export function HeaderBar() {
  const { t, lang, setLang, roleName } = useI18n();
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const [passwordOpen, setPasswordOpen] = useState(false);

  const items = [
    { key: 'roles', disabled: true, label: `${t('shell.roles')}: ${user?.roleCodes.map(roleName).join(', ') ?? ''}` },
    { type: 'divider' as const },
    { key: 'password', label: t('shell.password') },
    { key: 'logout', label: t('shell.logout') },
  ];
  const onClick = ({ key }: { key: string }) => {
    if (key === 'password') setPasswordOpen(true);
    if (key === 'logout') void logout().then(() => navigate('/login', { replace: true }));
  };

  return (
    <Layout.Header className="app-header">
      <Typography.Text strong className="app-title">
        {t('app.title')}
      </Typography.Text>
      <Space size="middle">
        <Notifications />
        <Segmented<Lang>
          aria-label={t('shell.language')}
          size="small"
          value={lang}
          onChange={setLang}
          options={[
            { label: 'EN', value: 'en' },
            { label: '한국어', value: 'ko' },
          ]}
        />
        <Dropdown menu={{ items, onClick }} trigger={['click']}>
          <Button type="text">
            <UserOutlined /> <span className="user-name">{user?.userName ?? '…'}</span>
            {user?.roleCodes.map((r) => (
              <Tag key={r} className="role-tag">
                {roleName(r)}
              </Tag>
            ))}
            <DownOutlined />
          </Button>
        </Dropdown>
      </Space>
      {passwordOpen && (
        <Suspense fallback={null}>
          <PasswordDialog open onClose={() => setPasswordOpen(false)} />
        </Suspense>
      )}
    </Layout.Header>
  );
}
