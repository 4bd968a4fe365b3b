import { useQuery } from '@tanstack/react-query';
import { dataProvider, type HistoryEntry, historyEntry } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { masterdataKeys } from './keys';

/** What the admin side panel shows of a record: its values, and its first and last history entries. */
export interface RecordFacts {
  row: Row;
  created: HistoryEntry | null;
  changed: HistoryEntry | null;
  entries: number;
}

/**
 * The record (generic read) and its history (the engine's history action,
 * newest first): creation is the create entry, the last change the newest.
 */
export async function getRecordFacts(entity: string, id: number, signal?: AbortSignal): Promise<RecordFacts> {
  const [record, history] = await Promise.all([dataProvider.one(entity, id, signal), dataProvider.history(entity, id, signal)]);
  const entries = (history.data?.data ?? []).map(historyEntry);
  const created = entries.find((e) => e.type === 'create') ?? null;
  return { row: record.data, created, changed: entries[0] ?? null, entries: entries.length };
}

export function useRecordFacts(entity: string, id: number, enabled: boolean) {
  return useQuery({
    queryKey: masterdataKeys.facts(entity, id),
    queryFn: ({ signal }) => getRecordFacts(entity, id, signal),
    enabled,
    retry: false,
  });
}
