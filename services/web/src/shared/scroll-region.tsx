import type { ReactNode } from 'react';

/**
 * A box that scrolls sideways (a wide table on a phone) instead of the table itself, so that a keyboard can
 * reach and scroll it even when the table holds nothing focusable: focusable, and a named region so that a
 * screen reader says what it holds (axe scrollable-region-focusable).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll-region" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
