import type { Row } from '../../../lib/table-definition';

/** Select options from lookup rows: the key as value, the label fields joined. */
export function optionsOf(rows: Row[] | undefined, key: string, label: string[]): { value: string; label: string }[] {
  return (rows ?? []).map((r) => ({ value: String(r[key]), label: label.map((f) => String(r[f] ?? '')).join(' ').trim() }));
}
