import {
  AccountBookOutlined,
  ApartmentOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  BookOutlined,
  CalculatorOutlined,
  CloudUploadOutlined,
  DashboardOutlined,
  FileOutlined,
  FileTextOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** The seeded menu_icon names; an unknown name gets a plain file icon. */
const ICONS: Record<string, ReactNode> = {
  apartment: <ApartmentOutlined aria-hidden="true" />,
  'file-text': <FileTextOutlined aria-hidden="true" />,
  calculator: <CalculatorOutlined aria-hidden="true" />,
  'cloud-upload': <CloudUploadOutlined aria-hidden="true" />,
  book: <BookOutlined aria-hidden="true" />,
  audit: <AuditOutlined aria-hidden="true" />,
  bank: <BankOutlined aria-hidden="true" />,
  'bar-chart': <BarChartOutlined aria-hidden="true" />,
  dashboard: <DashboardOutlined aria-hidden="true" />,
  'account-book': <AccountBookOutlined aria-hidden="true" />,
  team: <TeamOutlined aria-hidden="true" />,
  setting: <SettingOutlined aria-hidden="true" />,
};

export function menuIcon(name: string | null): ReactNode {
  return name ? (ICONS[name] ?? <FileOutlined aria-hidden="true" />) : undefined;
}
