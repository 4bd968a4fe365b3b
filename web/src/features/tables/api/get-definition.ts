import { queryOptions, useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { tableKeys } from './keys';

/** Table definitions are valid for 120 s (the specification's table cache). */
export const DEFINITION_STALE_MS = 120_000;

export const getDefinition = (table: string, signal?: AbortSignal) => dataProvider.definition(table, signal);

export const definitionQueryOptions = (table: string) =>
  queryOptions({
    queryKey: tableKeys.definition(table),
    queryFn: ({ signal }) => getDefinition(table, signal),
    staleTime: DEFINITION_STALE_MS,
  });

export function useDefinition(table: string) {
  return useQuery(definitionQueryOptions(table));
}
