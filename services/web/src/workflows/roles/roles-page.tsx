import { SafetyOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useI18n } from '../../i18n/i18n.js';
import ResourcePage from '../../resources/resource-page.js';

/** Roles: the generic list and forms, and per role the way into its permission matrix. */
export default function RolesPage() {
  const { t } = useI18n();
  return (
    <ResourcePage
      actionsOn={(r) => r.path === '/api/roles'}
      rowActions={(_resource, row) => (
        <Link to={`/system/roles/${String(row.roleId)}/permissions`} aria-label={t('roles.matrixLink', { code: String(row.roleCode) })}>
          <SafetyOutlined /> {t('roles.permissions')}
        </Link>
      )}
    />
  );
}
