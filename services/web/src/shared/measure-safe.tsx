import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * antd copies every column title into a hidden measure row (aria-hidden) when a table scrolls
 * horizontally; a title that holds a control (the select-all checkbox) would then be a focusable
 * element inside aria-hidden. Wrapped in this, the hidden copy is made inert; the visible one is not.
 */
export function MeasureSafe({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && el.closest('[aria-hidden="true"]')) el.setAttribute('inert', '');
  });
  return <span ref={ref}>{children}</span>;
}
