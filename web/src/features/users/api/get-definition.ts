import { queryOptions, useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { userKeys } from './keys';

/** The served definition of the user or team entity (fields, rules, relations); valid 120 s. */
export const definitionQueryOptions = (entity: 'user' | 'team') =>
  queryOptions({
    queryKey: userKeys.definition(entity),
    queryFn: ({ signal }) => dataProvider.definition(entity, signal),
    staleTime: 120_000,
  });

export function useEntityDefinition(entity: 'user' | 'team') {
  return useQuery(definitionQueryOptions(entity));
}
