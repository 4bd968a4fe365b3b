import { queryOptions, useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export const getRecord = (table: string, id: string | number, signal?: AbortSignal) => dataProvider.one(table, id, signal);

export const recordQueryOptions = (table: string, id: string | number) =>
  queryOptions({
    queryKey: tableKeys.record(table, id),
    queryFn: ({ signal }) => getRecord(table, id, signal),
    staleTime: 0,
  });

export function useRecord(table: string, id: string | number | undefined) {
  return useQuery({ ...recordQueryOptions(table, id ?? ''), enabled: id !== undefined && id !== '' });
}
