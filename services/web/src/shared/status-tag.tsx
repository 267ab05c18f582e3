import { Tag } from 'antd';

const TONES: Record<string, string> = {
  COMPLETED: 'good', CONFIRMED: 'good', PAID: 'good', SUCCESS: 'good', APPROVED: 'good', MATCHED: 'good',
  RUNNING: 'busy', REQUESTED: 'busy', CALCULATED: 'busy', PENDING: 'busy', SENT: 'busy',
  HOLD: 'warn', DIFF: 'warn', IN_REVIEW: 'warn', MISSING: 'warn', RECEIVED: 'good',
  FAILED: 'bad', FAIL: 'bad', REJECTED: 'bad', ERROR: 'bad',
};

/** A status as a tag whose colours pass WCAG AA contrast (antd's preset tag colours do not). */
export function StatusTag({ status }: { status: string | null | undefined }) {
  if (!status) return null;
  return <Tag className={`status-tag status-${TONES[status] ?? 'plain'}`}>{status}</Tag>;
}
