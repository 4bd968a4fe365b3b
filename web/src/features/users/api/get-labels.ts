import { useQueries } from '@tanstack/react-query';
import { dataProvider, rowLabel } from '../../../lib/data-provider';
import type { AttributeDefinition, Row } from '../../../lib/table-definition';
import { userKeys } from './keys';

/** The labels of some rows of a referenced table (read-rich with an `in` filter). */
export async function getLabels(table: string, key: string, label: string[], ids: (string | number)[], signal?: AbortSignal): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  const answer = await dataProvider.list(table, { filter: [{ field: key, op: 'in', value: ids.map(Number) }], perPage: ids.length }, signal);
  const out: Record<string, string> = {};
  for (const row of answer.data.data) out[String(row[key])] = rowLabel(row, label.length ? label : [key]) || String(row[key]);
  return out;
}

function idsOf(value: unknown): (string | number)[] {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined) as (string | number)[];
  return value === null || value === undefined || value === '' ? [] : [value as string | number];
}

/**
 * `<field>__label` values for the reference fields of `row` whose labels the
 * answer did not carry (lists of ids of multi-selects), so a select shows
 * names before it is opened.
 */
export function useMissingLabels(attrs: readonly AttributeDefinition[], row: Row | null | undefined): Row {
  const wanted = attrs.filter((a) => {
    if (!a.ref || !row) return false;
    const have = row[`${a.attribute}__label`];
    return idsOf(row[a.attribute]).length > 0 && (have === null || have === undefined);
  });
  const results = useQueries({
    queries: wanted.map((a) => {
      const ids = idsOf(row?.[a.attribute]);
      return {
        queryKey: userKeys.labels(a.ref!.table, ids),
        queryFn: ({ signal }: { signal: AbortSignal }) => getLabels(a.ref!.table, a.ref!.key, a.ref!.label, ids, signal),
        staleTime: 60_000,
      };
    }),
  });
  const out: Row = {};
  wanted.forEach((a, i) => {
    const labels = results[i]?.data;
    if (!labels) return;
    const value = row?.[a.attribute];
    out[`${a.attribute}__label`] = Array.isArray(value) ? value.map((v) => labels[String(v)] ?? String(v)) : (labels[String(value)] ?? null);
  });
  return out;
}
