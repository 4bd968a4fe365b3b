import type { Row } from '../../../lib/table-definition';

/** Select options from lookup rows: the key as value, the label fields joined. */
export function optionsOf(rows: Row[] | undefined, key: string, label: string[]): { value: string; label: string }[] {
  return (rows ?? []).map((r) => ({ value: String(r[key]), label: label.map((f) => String(r[f] ?? '')).join(' ').trim() }));
}

/** The options of a lookup, with the stored choice kept (by its label) when the list does not hold it. */
export function withStored(options: { value: string; label: string }[], value: string, label: unknown) {
  if (value && !options.some((o) => o.value === value)) return [...options, { value, label: String(label ?? value) }];
  return options;
}
