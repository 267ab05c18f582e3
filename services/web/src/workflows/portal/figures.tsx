import type { ReactNode } from 'react';
import { formatMoney } from '../../shared/format.js';

export interface Figure {
  key: string;
  label: ReactNode;
  /** A money string, or a ready value (a rate, a word). */
  value: ReactNode;
  money?: boolean;
  /** Shown as subtracted (`- 1,000.00`). */
  minus?: boolean;
  total?: boolean;
}

const ZERO = /^-?0+(\.0+)?$/;

/** Label / amount rows: the amount right-aligned, grouped, on one line. */
export function Figures({ items, label }: { items: Figure[]; label?: string }) {
  return (
    <dl className="portal-figures" aria-label={label}>
      {items.map((f) => {
        const text = typeof f.value === 'string' && f.money !== false ? f.value : undefined;
        const zero = text !== undefined && ZERO.test(text);
        const cls = [f.total ? 'portal-total' : '', zero && !f.total ? 'portal-zero' : ''].filter(Boolean).join(' ') || undefined;
        return (
          <div key={f.key} className={cls} data-figure={f.key}>
            <dt>{f.label}</dt>
            <dd className="money">{text !== undefined ? `${f.minus && !zero ? '- ' : ''}${formatMoney(text)}` : f.value}</dd>
          </div>
        );
      })}
    </dl>
  );
}
