import { useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Menu, Result, Spin, type MenuProps } from 'antd';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../auth/auth.js';
import { useI18n } from '../i18n/i18n.js';
import { resourceMetaQuery } from '../resources/meta.js';
import { Breadcrumbs } from './breadcrumbs.js';
import { HeaderBar } from './header-bar.js';
import { isKnownPath } from './known-paths.js';
import { menuIcon } from './menu-icons.js';
import { useMyMenus, type MenuNode } from './menus.js';
import { isAgentOnly, isPortalPath } from '../workflows/portal/portal-access.js';
import { portalMenuItems, portalSelectedKeys } from '../workflows/portal/portal-menu.js';

/** Runs `task` when the browser has nothing else to do (at the latest after `timeoutMs`); returns the cancel. */
function whenIdle(task: () => void, timeoutMs = 2_000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 200);
  return () => window.clearTimeout(id);
}

/** Paths every signed-in user may open, whatever the menu says. */
const OWN_PATHS = new Set(['', 'profile']);

function menuItems(nodes: MenuNode[], name: (n: MenuNode) => string): MenuProps['items'] {
  const items: NonNullable<MenuProps['items']> = [];
  for (const node of [...nodes].sort((a, b) => a.sortOrder - b.sortOrder)) {
    if (!node.isVisible) continue;
    if (node.menuType === 'DIRECTORY') {
      const children = menuItems(node.children ?? [], name);
      if (children && children.length > 0) {
        items.push({ key: `dir:${node.menuCode}`, icon: menuIcon(node.menuIcon), label: name(node), children });
      }
    } else if (node.menuPath && node.permissions.includes('READ')) {
      const path = `/${node.menuPath.replace(/^\/+/, '')}`;
      items.push({ key: path, icon: menuIcon(node.menuIcon), label: <Link to={path}>{name(node)}</Link> });
    }
  }
  return items;
}

export function Loading() {
  const { t } = useI18n();
  return (
    <div className="page-loading" role="status" aria-label={t('common.loading')}>
      <Spin />
    </div>
  );
}

function HomeButton() {
  const { t } = useI18n();
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => void navigate('/')}>
      {t('shell.goHome')}
    </Button>
  );
}

/** A page of the platform that the user's roles do not include: said kindly, with the way home. */
export function Forbidden() {
  const { t } = useI18n();
  return (
    <Result
      status="403"
      title={t('forbidden.title')}
      subTitle={
        <>
          <span>{t('forbidden.text')}</span> <span>{t('shell.noAccessText')}</span>
        </>
      }
      extra={<HomeButton />}
    />
  );
}

/** An address that is no page at all. */
export function NotFound({ path }: { path: string }) {
  const { t } = useI18n();
  return <Result status="404" title={t('notFound.title')} subTitle={t('shell.notFoundText', { path })} extra={<HomeButton />} />;
}

export default function AppLayout() {
  const auth = useAuth();
  const { t, menuName } = useI18n();
  const location = useLocation();
  const { menus, isLoading } = useMyMenus();
  const queryClient = useQueryClient();
  // Most pages are generic ones: their metadata and code are fetched once the first page has drawn (a generic
  // page asks for both itself at once). Not before: the metadata is a large answer that a hand-written first
  // page does without, and it took the server and the browser from that page's own calls (issue 24).
  useEffect(() => {
    if (!auth.signedIn) return;
    const until = Date.now() + 5_000;
    let cancel = () => {};
    const fetchSoon = () => {
      // the page's own calls first
      if (queryClient.isFetching() > 0 && Date.now() < until) {
        cancel = whenIdle(fetchSoon);
        return;
      }
      void queryClient.prefetchQuery(resourceMetaQuery);
      void import('../resources/resource-page.js');
    };
    cancel = whenIdle(fetchSoon);
    return () => cancel();
  }, [auth.signedIn, queryClient]);
  const [collapsed, setCollapsed] = useState(false);
  const current = menus?.pageOf(location.pathname);
  // An AGENT-only user gets the agent portal: its own menu, and no operator page (DECISIONS "agents serve themselves").
  const agentOnly = isAgentOnly(auth.user);
  const items = useMemo(
    () => (agentOnly ? portalMenuItems(t) : menus ? menuItems(menus.tree, (n) => menuName(n.menuCode, n.menuName)) : []),
    [agentOnly, t, menus, menuName],
  );
  const [openKeys, setOpenKeys] = useState<string[] | undefined>(undefined);

  if (!auth.signedIn) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;

  const path = location.pathname.replace(/^\/+|\/+$/g, '');
  const allowed = agentOnly ? isPortalPath(path) || path === 'profile' : OWN_PATHS.has(path) || current !== undefined;
  const currentOpen = current ? current.parents.map((p) => `dir:${p.menuCode}`) : [];

  return (
    <Layout className="app-layout">
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        // A phone gets the icons only: the page keeps the width.
        breakpoint="md"
        onBreakpoint={setCollapsed}
        width={240}
        theme="light"
        className="app-sider"
      >
        <nav aria-label="Main menu">
          <Menu
            mode="inline"
            items={items}
            selectedKeys={agentOnly ? portalSelectedKeys(location.pathname) : current ? [`/${current.path}`] : []}
            openKeys={openKeys ?? currentOpen}
            onOpenChange={setOpenKeys}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <HeaderBar />
        <Layout.Content className="app-content">
          <main>
            {!agentOnly && <Breadcrumbs page={current} />}
            {isLoading || !menus || !auth.user ? (
              <Loading />
            ) : allowed ? (
              <Suspense fallback={<Loading />}>
                <Outlet />
              </Suspense>
            ) : isKnownPath(location.pathname) || isPortalPath(location.pathname) ? (
              <Forbidden />
            ) : (
              <NotFound path={location.pathname} />
            )}
          </main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
