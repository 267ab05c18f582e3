import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/ko';
import type { CSSProperties } from 'react';
import { useI18n } from '../i18n/i18n.js';

/** The calendar's words (month names, weekdays) follow the screen's language, not the browser's. */
export function usePickerLocale(): void {
  const { lang } = useI18n();
  const wanted = lang === 'ko' ? 'ko' : 'en';
  if (dayjs.locale() !== wanted) dayjs.locale(wanted);
}

/** `YYYYMM` (or `YYYY-MM`) from the wire as the picker's day, or null when it is not a month. */
export function monthDay(value: string | null | undefined): Dayjs | null {
  const m = value ? /^(\d{4})-?(0[1-9]|1[0-2])$/.exec(value.trim()) : null;
  return m ? dayjs(`${m[1]}-${m[2]}-01`) : null;
}

/** A picked month as the wire's `YYYYMM`. */
export function wireMonth(day: Dayjs | null | undefined): string | undefined {
  return day ? day.format('YYYYMM') : undefined;
}

export interface PickerProps {
  value?: string | null | undefined;
  onChange?: ((value: string | undefined) => void) | undefined;
  id?: string | undefined;
  style?: CSSProperties | undefined;
  className?: string | undefined;
  placeholder?: string | undefined;
  disabled?: boolean | undefined;
  'aria-label'?: string | undefined;
}

/**
 * A month picker (antd DatePicker, picker="month") whose value is the wire's `YYYYMM` and whose face is
 * `YYYY-MM` in both languages; `2026-10` or `202610` may also be typed.
 */
export function MonthInput({ value, onChange, className, placeholder, ...rest }: PickerProps) {
  const { t } = useI18n();
  usePickerLocale();
  return (
    <DatePicker
      {...rest}
      picker="month"
      format={['YYYY-MM', 'YYYYMM']}
      className={['month-input', className].filter(Boolean).join(' ')}
      placeholder={placeholder ?? t('pickers.chooseMonth')}
      value={monthDay(value ?? null)}
      onChange={(day) => onChange?.(wireMonth(day as Dayjs | null))}
    />
  );
}

/** The form rule of a month field: `YYYYMM` once picked. */
export const monthPattern = /^\d{4}(0[1-9]|1[0-2])$/;
