import { Fragment } from 'react';
import { useI18n } from '../../i18n/i18n.js';
import { FieldValue } from '../../resources/field-value.js';
import { fieldLabel, useResourceMeta } from '../../resources/meta.js';
import { formatDate } from '../../shared/format.js';
import type { SimulationChange } from './simulation-api.js';
import { useRuleTables } from './rule-change-card.js';

/**
 * A proposed change in words: the row it touches and the new row's values, each under the rule's own field
 * label and drawn as its kind (names for references, codes in words, rates with %). The server's one-line
 * label is the fallback while the metadata loads.
 */
export function ChangeText({ change }: { change: Pick<SimulationChange, 'ruleTable' | 'action' | 'targetId' | 'values' | 'endDate' | 'label'> }) {
  const { t } = useI18n();
  const table = useRuleTables().data?.find((x) => x.ruleTable === change.ruleTable);
  const resource = useResourceMeta().data?.find((r) => r.name === table?.resource);
  if (!resource) return <span className="sim-change-label">{change.label}</span>;
  const values = change.values ?? {};
  const shown = resource.fields.filter((f) => f.key !== 'effectiveTo' && values[f.key] !== undefined && values[f.key] !== null && values[f.key] !== '');
  return (
    <span className="sim-change-label">
      {change.targetId != null && <span>{t('sim.rowNo', { id: change.targetId })}</span>}
      {shown.map((f) => (
        <Fragment key={f.key}>
          {' · '}
          <span>
            {fieldLabel(f)} <FieldValue field={f} value={values[f.key]} row={values} link={false} />
          </span>
        </Fragment>
      ))}
      {change.action === 'END' && change.endDate && <span>{` · ${t('sim.endDate')} ${formatDate(change.endDate)}`}</span>}
    </span>
  );
}
