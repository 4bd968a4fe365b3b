import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { dataProvider, type ListAnswer, type ListParams } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export const listRows = (entity: string, params: ListParams, signal?: AbortSignal) => dataProvider.list(entity, params, signal);

export const listRowsQueryOptions = (entity: string, params: ListParams) =>
  queryOptions({
    queryKey: tableKeys.list(entity, params),
    queryFn: ({ signal }) => listRows(entity, params, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    // A total counted earlier is being counted again on the server: ask
    // again until the answer carries the new one.
    refetchInterval: (query) => totalRecheck(query.state.data),
  });

/** How soon a list whose total is being counted again asks again. */
export const TOTAL_RECHECK_MS = 1500;

/** When to ask for a page again: soon while its total is being counted again, else not by itself. */
export function totalRecheck(answer: ListAnswer | undefined): number | false {
  return answer?.data.total_as_of ? TOTAL_RECHECK_MS : false;
}

/** A page of rows of an entity or of a relation ('{table}_{relation}_rel' with data {owner key: id}). */
export function useListRows(entity: string, params: ListParams, enabled = true) {
  return useQuery({ ...listRowsQueryOptions(entity, params), enabled });
}
