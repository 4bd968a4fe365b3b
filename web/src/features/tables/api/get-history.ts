import { queryOptions, useQuery } from '@tanstack/react-query';
import { dataProvider, type HistoryEntry, historyEntry } from '../../../lib/data-provider';
import { tableKeys } from './keys';

/** The history of one record, newest first. */
export async function getHistory(table: string, id: string | number, signal?: AbortSignal): Promise<HistoryEntry[]> {
  const answer = await dataProvider.history(table, id, signal);
  return (answer.data?.data ?? []).map(historyEntry);
}

export const historyQueryOptions = (table: string, id: string | number) =>
  queryOptions({ queryKey: tableKeys.history(table, id), queryFn: ({ signal }) => getHistory(table, id, signal) });

export function useHistory(table: string, id: string | number, enabled = true) {
  return useQuery({ ...historyQueryOptions(table, id), enabled });
}
