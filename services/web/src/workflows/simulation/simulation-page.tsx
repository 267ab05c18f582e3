import { CaretRightOutlined, CheckCircleOutlined, DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, List, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { formatMonth, formatTimestamp } from '../../shared/format.js';
import { Loading } from '../../shell/app-layout.js';
import { useCurrentPage, useGrant, useMyMenus } from '../../shell/menus.js';
import { AdoptDialog } from './adopt-dialog.js';
import { ChangeText } from './change-text.js';
import { CompareCard } from './compare-card.js';
import { useRuleTableName } from './rule-change-card.js';
import { exportSimulation, getSimulation, runSimulation } from './simulation-api.js';
import { RunProgress, ScopeText, SimStatusTag } from './simulation-bits.js';
import { canAdopt, canRun, hasResults, isActive, isChangeable, nextMonthStart } from './simulation-model.js';
import { todayText } from '../org/org-api.js';
import { SimulationResults } from './simulation-results.js';
import './simulation.css';

const POLL_MS = 1500;

/** One simulation: what it proposes, its run and progress, then its results, comparison and adoption. */
export default function SimulationPage() {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const id = Number(useParams().simId);
  const page = useCurrentPage();
  const base = page ? `/${page.path}` : '/rules/simulations';
  const can = useGrant('SIMULATION');
  const { menus } = useMyMenus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tableName = useRuleTableName();
  const [starting, setStarting] = useState(false);
  const [adopting, setAdopting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [approvalId, setApprovalId] = useState<number | null>(null);
  const sim = useQuery({
    queryKey: ['simulations', 'detail', id],
    enabled: Number.isInteger(id) && id > 0,
    queryFn: () => getSimulation(id),
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? POLL_MS : false),
  });
  if (sim.isLoading) return <Loading />;
  if (sim.error) return <ErrorNotice error={sim.error} />;
  const s = sim.data;
  if (!s) return null;
  const results = hasResults(s.status);
  const shownApproval = approvalId ?? s.approvalId ?? null;

  const fail = (err: unknown) => void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : t('error.network'));
  const run = async () => {
    setStarting(true);
    try {
      await runSimulation(id);
      await queryClient.invalidateQueries({ queryKey: ['simulations'] });
    } catch (err) {
      fail(err);
    } finally {
      setStarting(false);
    }
  };
  const download = async () => {
    setExporting(true);
    try {
      await exportSimulation(id);
    } catch (err) {
      fail(err);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="sim-page" aria-label={s.name}>
      <h1 className="page-title">
        {s.name} <SimStatusTag status={s.status} />
      </h1>
      <Space wrap className="list-toolbar">
        <Button onClick={() => void navigate(base)}>{t('common.back')}</Button>
        {can('CREATE') && isChangeable(s.status) && (
          <Button icon={<EditOutlined />} onClick={() => void navigate(`${base}/${id}/edit`)}>
            {t('common.edit')}
          </Button>
        )}
        {can('CREATE') && canRun(s.status, s.changes.length) && (
          <Button type="primary" icon={<CaretRightOutlined />} loading={starting} onClick={() => void run()}>
            {s.status === 'DRAFT' ? t('sim.run') : t('sim.runAgain')}
          </Button>
        )}
        {results && (
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void download()}>
            {t('common.export')}
          </Button>
        )}
        {can('CREATE') && canAdopt(s.status) && (
          <Button icon={<CheckCircleOutlined />} onClick={() => setAdopting(true)}>
            {t('sim.adopt')}
          </Button>
        )}
      </Space>
      <Card size="small" className="list-toolbar">
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'baseMonth', label: t('sim.baseMonth'), children: formatMonth(s.baseMonth) },
            { key: 'scope', label: t('sim.scope'), children: <ScopeText row={s} /> },
            { key: 'createdBy', label: t('sim.createdBy'), children: `${s.createdByName ?? '-'} · ${formatTimestamp(s.createdAt)}` },
            ...(s.startedAt ? [{ key: 'startedAt', label: t('sim.startedAt'), children: formatTimestamp(s.startedAt) }] : []),
            ...(s.finishedAt ? [{ key: 'finishedAt', label: t('sim.finishedAt'), children: formatTimestamp(s.finishedAt) }] : []),
          ]}
        />
        <RunProgress row={s} />
      </Card>
      {s.status === 'DRAFT' && <Alert type="info" showIcon className="list-toolbar" title={t('sim.draftHint')} />}
      {s.status === 'FAILED' && <Alert type="error" role="alert" showIcon className="list-toolbar" title={t('sim.failed')} description={s.errorMessage ?? undefined} />}
      {(s.status === 'ADOPTION_PENDING' || shownApproval) && s.status !== 'ADOPTED' && (
        <Alert
          type="warning"
          showIcon
          className="list-toolbar"
          title={t('sim.pending')}
          description={
            <>
              {t('sim.pendingText')}{' '}
              {shownApproval && menus?.byCode.has('APPROVAL') ? <Link to="/system/approvals">{t('sim.openApproval', { id: shownApproval })}</Link> : null}
            </>
          }
        />
      )}
      {s.status === 'ADOPTED' && <Alert type="success" showIcon className="list-toolbar" title={t('sim.adopted')} />}
      <Card size="small" className="list-toolbar" title={<h2 className="card-title">{t('sim.changesOf', { count: s.changes.length })}</h2>}>
        <List
          size="small"
          dataSource={s.changes}
          locale={{ emptyText: <span className="sim-empty">{t('sim.noChanges')}</span> }}
          renderItem={(c) => (
            <List.Item>
              <Typography.Text>
                <strong>
                  {c.seq}. {tableName(c.ruleTable)} · {t(`sim.action.${c.action}`)}
                </strong>{' '}
                <ChangeText change={c} />
              </Typography.Text>
            </List.Item>
          )}
        />
      </Card>
      {results && <SimulationResults simulationId={id} changes={s.changes} />}
      {results && <CompareCard simulationId={id} baseMonth={s.baseMonth} />}
      {adopting && (
        <AdoptDialog
          simulationId={id}
          name={s.name}
          changeCount={s.changes.length}
          defaultFrom={nextMonthStart(todayText())}
          onCancel={() => setAdopting(false)}
          onDone={(approval) => {
            setAdopting(false);
            setApprovalId(approval);
            void message.success(t('sim.adoptSent', { id: approval }));
            void queryClient.invalidateQueries({ queryKey: ['simulations'] });
          }}
        />
      )}
    </section>
  );
}
