import { HistoryOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.js';
import { idField, type ResourceMeta } from '../../resources/meta.js';
import ResourcePage from '../../resources/resource-page.js';
import { useCurrentPage, useGrant } from '../../shell/menus.js';
import { RuleHistoryDrawer } from './rule-history-drawer.js';
import { ruleKindOf, type RuleKind } from './rule-kinds.js';
import { RuleReviseDialog } from './rule-revise-dialog.js';

type Row = Record<string, unknown>;
type Open = { resource: ResourceMeta; row: Row };

/**
 * Commission, payout, override and chargeback rule pages: the generic list and forms, plus per row
 * the version history of its rule and, where the server offers it, a revision (a new version).
 */
export default function RulePage() {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const page = useCurrentPage();
  const kind = page ? ruleKindOf(page.node.menuCode) : undefined;
  const can = useGrant(page?.node.menuCode);
  const [history, setHistory] = useState<Open | null>(null);
  const [revising, setRevising] = useState<Open | null>(null);
  const revisable = kind?.revise && can('CREATE') ? (kind as RuleKind & { revise: NonNullable<RuleKind['revise']> }) : undefined;
  const idKey = (resource: ResourceMeta) => idField(resource)?.key ?? 'id';

  const rowActions = (resource: ResourceMeta, row: Row) => {
    const id = String(row[idKey(resource)]);
    return (
      <Space size="small">
        <Button size="small" icon={<HistoryOutlined />} onClick={() => setHistory({ resource, row })} aria-label={t('rules.historyOf', { id })}>
          {t('rules.history')}
        </Button>
        {revisable && (
          <Button size="small" onClick={() => setRevising({ resource, row })} aria-label={t('rules.reviseRow', { id })}>
            {t('rules.revise')}
          </Button>
        )}
      </Space>
    );
  };

  return (
    <>
      <ResourcePage rowActions={kind ? rowActions : undefined} actionsOn={(r) => r.path === kind?.path} />
      {kind && history && (
        <RuleHistoryDrawer
          kind={kind}
          resource={history.resource}
          of={history.row}
          idKey={idKey(history.resource)}
          canRevise={!!revisable}
          onRevise={(row) => setRevising({ resource: history.resource, row })}
          onClose={() => setHistory(null)}
        />
      )}
      {revisable && revising && (
        <RuleReviseDialog
          kind={revisable}
          resource={revising.resource}
          row={revising.row}
          idKey={idKey(revising.resource)}
          onCancel={() => setRevising(null)}
          onDone={(result, from) => {
            setRevising(null);
            void message.success(t('rules.revised', { version: result.version, from }));
            void queryClient.invalidateQueries({ queryKey: ['list', revising.resource.path] });
            // The history stays open on the rule and shows the new version.
            setHistory((h) => h ?? { resource: revising.resource, row: revising.row });
          }}
        />
      )}
    </>
  );
}
