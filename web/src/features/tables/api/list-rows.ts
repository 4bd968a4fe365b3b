import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { dataProvider, type ListParams } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export const listRows = (entity: string, params: ListParams, signal?: AbortSignal) => dataProvider.list(entity, params, signal);

export const listRowsQueryOptions = (entity: string, params: ListParams) =>
  queryOptions({
    queryKey: tableKeys.list(entity, params),
    queryFn: ({ signal }) => listRows(entity, params, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** A page of rows of an entity or of a relation ('{table}_{relation}_rel' with data {owner key: id}). */
export function useListRows(entity: string, params: ListParams, enabled = true) {
  return useQuery({ ...listRowsQueryOptions(entity, params), enabled });
}
