import { Progress, Tag, Typography } from 'antd';
import { useI18n } from '../../i18n/i18n.js';
import type { SimulationRow, SimulationStatus } from './simulation-api.js';
import { diffClass, etaParts, isActive, progressPercent, scopeOf, signedMoney, signedPct, statusTone } from './simulation-model.js';

/** A simulation's status in words, coloured by what it means (running, done, failed, waiting for approval). */
export function SimStatusTag({ status }: { status: SimulationStatus }) {
  const { statusName } = useI18n();
  return (
    <Tag className={`status-tag status-${statusTone(status)}`} data-code={status}>
      {statusName(status)}
    </Tag>
  );
}

/** 전체 / 조직 name / 설계사 n명. */
export function ScopeText({ row }: { row: Pick<SimulationRow, 'scopeType' | 'scopeOrgId' | 'scopeOrgName' | 'scopeAgentIds'> }) {
  const { t } = useI18n();
  const scope = scopeOf(row);
  if (scope.kind === 'ORG') return <>{t('sim.scopeOrgOf', { name: scope.name })}</>;
  if (scope.kind === 'AGENTS') return <>{t('sim.scopeAgentsOf', { count: scope.count })}</>;
  return <>{t('sim.scopeAll')}</>;
}

/** The bar of a running job with processed/total and the time left. */
export function RunProgress({ row, compact = false }: { row: SimulationRow; compact?: boolean }) {
  const { t } = useI18n();
  const eta = etaParts(row.etaSeconds);
  const active = isActive(row.status);
  const percent = progressPercent(row);
  if (!active && row.status !== 'FAILED') return null;
  return (
    <div className="sim-progress">
      <Progress
        percent={percent}
        size={compact ? 'small' : 'default'}
        status={row.status === 'FAILED' ? 'exception' : active ? 'active' : 'normal'}
        aria-label={t('sim.progress')}
      />
      {active && (
        <Typography.Text type="secondary" className="sim-progress-text">
          {row.status === 'QUEUED' && row.processed === 0
            ? t('sim.queued')
            : t('sim.processed', { processed: row.processed.toLocaleString('en-US'), total: row.total.toLocaleString('en-US') })}
          {eta && active ? ` · ${eta.minutes > 0 ? t('sim.etaMin', { minutes: eta.minutes, seconds: eta.seconds }) : t('sim.etaSec', { seconds: eta.seconds })}` : ''}
        </Typography.Text>
      )}
    </div>
  );
}

/** A difference in money with its sign, green for a gain and red for a loss. */
export function Diff({ value }: { value: string | null | undefined }) {
  return <span className={`money ${diffClass(value)}`}>{signedMoney(value)}</span>;
}

export function DiffPct({ value }: { value: string | null | undefined }) {
  return <span className={`money ${diffClass(value)}`}>{signedPct(value)}</span>;
}
