import { Result, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useI18n } from '../i18n/i18n.js';
import { Loading } from '../shell/app-layout.js';
import { useCurrentPage, type PageMenu } from '../shell/menus.js';
import { ResourceDetail } from './detail-page.js';
import { ErrorNotice } from './error-notice.js';
import { ResourceForm } from './form-page.js';
import { ResourceList } from './list-page.js';
import { useResourceMeta, type ResourceMeta } from './meta.js';
import { resourceTitles } from './resource-title.js';

/** A tab key that is a valid id fragment (antd builds element ids from it). */
function tabKey(resource: ResourceMeta): string {
  return resource.name.replace(/[^A-Za-z0-9_-]+/g, '-');
}

export function Unavailable() {
  const { t } = useI18n();
  return <Result status="info" title={t('unavailable.title')} subTitle={t('unavailable.text')} />;
}

export function PageTitle({ page }: { page: PageMenu }) {
  const { menuName } = useI18n();
  return <h1 className="page-title">{menuName(page.node.menuCode, page.node.menuName)}</h1>;
}

/**
 * Every menu page without a hand-written screen: list, `new`, `<id>` and `<id>/edit` of the resources
 * whose menu is the page's menu, drawn from `/api/meta/resources`. A new resource on the server gets
 * its page here without web code.
 */
export interface ResourcePageProps {
  /** A hand-written panel above the list (workflow actions of the page). */
  above?: (resource: ResourceMeta) => ReactNode;
  /** Extra actions per row of a list (downloads, state changes). */
  rowActions?: (resource: ResourceMeta, row: Record<string, unknown>) => ReactNode;
  /** Which resources' lists get the `rowActions` column (default: all). */
  actionsOn?: (resource: ResourceMeta) => boolean;
  /** A hand-written list in place of the generic one for some resources (undefined: the generic list). */
  listOf?: (resource: ResourceMeta, page: PageMenu) => ReactNode | undefined;
}

export default function ResourcePage({ above, rowActions, actionsOn, listOf }: ResourcePageProps = {}) {
  const { menuName, lang } = useI18n();
  const page = useCurrentPage();
  const meta = useResourceMeta();
  const location = useLocation();
  const [params, setParams] = useSearchParams();

  if (!page) return null;
  if (meta.isLoading) return <Loading />;
  if (meta.error) return <ErrorNotice error={meta.error} />;
  const resources = (meta.data ?? []).filter((r) => r.menu === page.node.menuCode);
  if (resources.length === 0) {
    return (
      <>
        <PageTitle page={page} />
        <Unavailable />
      </>
    );
  }

  const chosen: ResourceMeta = resources.find((r) => tabKey(r) === params.get('resource')) ?? resources[0]!;
  const rest = location.pathname.replace(/^\/+|\/+$/g, '').slice(page.path.length).split('/').filter(Boolean).map(decodeURIComponent);

  const titles = resourceTitles(resources, page.path, menuName(page.node.menuCode, page.node.menuName), lang);
  const listFor = (r: ResourceMeta) =>
    listOf?.(r, page) ?? <ResourceList resource={r} page={page} rowActions={actionsOn && !actionsOn(r) ? undefined : rowActions} />;

  let body;
  if (rest.length === 0) {
    body =
      resources.length === 1 ? (
        listFor(chosen)
      ) : (
        <Tabs
          activeKey={tabKey(chosen)}
          onChange={(key) => setParams({ resource: key })}
          items={resources.map((r) => ({ key: tabKey(r), label: titles.get(r), children: r === chosen ? listFor(r) : null }))}
        />
      );
  } else if (rest.length === 1 && rest[0] === 'new') body = <ResourceForm resource={chosen} page={page} />;
  else if (rest.length === 1) body = <ResourceDetail resource={chosen} page={page} id={rest[0]!} />;
  else if (rest.length === 2 && rest[1] === 'edit') body = <ResourceForm resource={chosen} page={page} id={rest[0]!} />;
  else body = <Unavailable />;

  return (
    <>
      <PageTitle page={page} />
      {rest.length === 0 && above?.(chosen)}
      {body}
    </>
  );
}
