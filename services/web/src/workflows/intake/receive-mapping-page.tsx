import { NodeIndexOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useNavigate } from 'react-router';
import { useI18n } from '../../i18n/i18n.js';
import ResourcePage from '../../resources/resource-page.js';
import { useGrant } from '../../shell/menus.js';

/** Carrier profiles, field and code mappings (generic lists) with the way into the mapping wizard. */
export default function ReceiveMappingPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const can = useGrant('RECEIVE_MAPPING');
  return (
    <ResourcePage
      above={() =>
        can('CREATE') ? (
          <Space className="list-toolbar">
            <Button type="primary" icon={<NodeIndexOutlined />} onClick={() => void navigate('/receive/mapping/wizard')}>
              {t('mapping.wizard')}
            </Button>
          </Space>
        ) : null
      }
    />
  );
}
