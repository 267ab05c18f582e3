import type { FieldRef } from './meta.js';
import { useRefOptions, useRefTarget } from './ref-select.js';

/** The name of one referenced record (a user, an approval line ...), the value itself while it loads or when unreadable. */
export function RefName({ target, value }: { target: FieldRef; value: string }) {
  const resolved = useRefTarget(target);
  const [option] = useRefOptions(resolved, [value]);
  return <>{option?.label ?? value}</>;
}
