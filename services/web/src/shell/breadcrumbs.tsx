import { Breadcrumb } from 'antd';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useI18n } from '../i18n/i18n.js';
import type { PageMenu } from './menus.js';

/** Home / directory / page, then the sub-page (detail, new, edit) the path adds to the page. */
export function Breadcrumbs({ page }: { page: PageMenu | undefined }) {
  const { t, menuName } = useI18n();
  const location = useLocation();
  const items: { title: ReactNode }[] = [{ title: <Link to="/">{t('shell.home')}</Link> }];
  if (page) {
    for (const dir of page.parents) items.push({ title: menuName(dir.menuCode, dir.menuName) });
    const rest = location.pathname.replace(/^\/+|\/+$/g, '').slice(page.path.length).split('/').filter(Boolean);
    const name = menuName(page.node.menuCode, page.node.menuName);
    items.push({ title: rest.length ? <Link to={`/${page.path}`}>{name}</Link> : name });
    if (rest[0] === 'new') items.push({ title: t('common.create') });
    else if (rest[rest.length - 1] === 'edit') items.push({ title: t('common.edit') });
    else if (rest[0] === 'wizard') items.push({ title: t('mapping.wizard') });
    else if (rest[rest.length - 1] === 'permissions') items.push({ title: `${t('roles.permissions')} ${rest[0] ?? ''}` });
    else if (rest[0] === 'explain') items.push({ title: t('explain.title') });
    else if (rest.length) items.push({ title: t('common.detail') });
  }
  return <Breadcrumb className="app-breadcrumbs" items={items} />;
}
