import { Input } from 'antd';
import type { CSSProperties } from 'react';
import { formatMonth, toWireMonth } from './format.js';

/**
 * A month picker whose value is the wire's `YYYYMM` and whose face is `YYYY-MM` (the browser's month
 * control: a calendar of months, no 6-character limit that cuts `2026-10` to `2026-1`).
 */
export function MonthInput({
  value,
  onChange,
  id,
  style,
  className,
  'aria-label': ariaLabel,
}: {
  value?: string | null | undefined;
  onChange?: ((value: string | undefined) => void) | undefined;
  id?: string | undefined;
  style?: CSSProperties | undefined;
  className?: string | undefined;
  'aria-label'?: string | undefined;
}) {
  const shown = value ? formatMonth(value) : '';
  return (
    <Input
      type="month"
      id={id}
      style={style}
      className={['month-input', className].filter(Boolean).join(' ')}
      aria-label={ariaLabel}
      value={/^\d{4}-\d{2}$/.test(shown) ? shown : ''}
      onChange={(e) => onChange?.(toWireMonth(e.target.value))}
    />
  );
}

/** The form rule of a month field: `YYYYMM` once picked. */
export const monthPattern = /^\d{4}(0[1-9]|1[0-2])$/;
