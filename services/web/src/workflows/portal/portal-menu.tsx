import { ExclamationCircleOutlined, FileTextOutlined, HomeOutlined, WalletOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { Link } from 'react-router';
import type { MessageKey } from '../../i18n/messages.js';
import { PORTAL_PAGES, portalPageOf } from './portal-access.js';

const ICONS = { home: <HomeOutlined />, dispute: <ExclamationCircleOutlined />, statement: <FileTextOutlined />, withdraw: <WalletOutlined /> };

/** The agent's menu: the portal's pages only. */
export function portalMenuItems(t: (key: MessageKey) => string): NonNullable<MenuProps['items']> {
  return PORTAL_PAGES.map((p) => ({ key: `/${p.path}`, icon: ICONS[p.icon], label: <Link to={`/${p.path}`}>{t(p.label)}</Link> }));
}

/** The selected menu key of a portal pathname. */
export function portalSelectedKeys(pathname: string): string[] {
  const page = portalPageOf(pathname);
  return page ? [`/${page.path}`] : [];
}
