import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useI18n } from '../i18n/i18n.js';
import { usePickerLocale, type PickerProps } from './month-input.js';

/** `YYYY-MM-DD` from the wire as the picker's day (never through `new Date()`: no time zone shifts it). */
export function dateDay(value: string | null | undefined): Dayjs | null {
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim()) : null;
  if (!m) return null;
  const day = dayjs(`${m[1]}-${m[2]}-${m[3]}T00:00:00`);
  return day.isValid() && day.format('YYYY-MM-DD') === value!.trim() ? day : null;
}

/** A picked day as the wire's `YYYY-MM-DD`. */
export function wireDate(day: Dayjs | null | undefined): string | undefined {
  return day ? day.format('YYYY-MM-DD') : undefined;
}

/** A date picker whose value is the wire's `YYYY-MM-DD`, shown the same way in both languages. */
export function DateInput({ value, onChange, className, placeholder, ...rest }: PickerProps) {
  const { t } = useI18n();
  usePickerLocale();
  return (
    <DatePicker
      {...rest}
      format={['YYYY-MM-DD', 'YYYYMMDD']}
      className={['date-input', className].filter(Boolean).join(' ')}
      placeholder={placeholder ?? t('pickers.chooseDate')}
      value={dateDay(value ?? null)}
      onChange={(day) => onChange?.(wireDate(day as Dayjs | null))}
    />
  );
}
