import { Tag } from 'antd';
import { useI18n } from '../i18n/i18n.js';

const TONES: Record<string, string> = {
  COMPLETED: 'good', CONFIRMED: 'good', PAID: 'good', SUCCESS: 'good', APPROVED: 'good', MATCHED: 'good',
  RUNNING: 'busy', REQUESTED: 'busy', CALCULATED: 'busy', PENDING: 'busy', SENT: 'busy',
  HOLD: 'warn', DIFF: 'warn', IN_REVIEW: 'warn', MISSING: 'warn', RECEIVED: 'good', OPEN: 'warn',
  FAILED: 'bad', FAIL: 'bad', REJECTED: 'bad', ERROR: 'bad',
};

/**
 * A status as a tag in words (`HOLD` -> 보류) whose colours pass WCAG AA contrast (antd's preset tag
 * colours do not). `label` and `tone` come from the common code when the caller has them.
 */
export function StatusTag({ status, label, tone }: { status: string | null | undefined; label?: string | undefined; tone?: string | null | undefined }) {
  const { statusName } = useI18n();
  if (!status) return null;
  return (
    <Tag className={`status-tag status-${tone ?? TONES[status] ?? 'plain'}`} data-code={status}>
      {label ?? statusName(status)}
    </Tag>
  );
}
