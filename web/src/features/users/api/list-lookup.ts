import { queryOptions, useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { userKeys } from './keys';

/** The small lookup tables the forms need whole: user types (external flag) and roles (external flag). */
export type LookupEntity = 'usertype' | 'role';

export const lookupQueryOptions = (entity: LookupEntity) =>
  queryOptions({
    queryKey: userKeys.lookup(entity),
    queryFn: async ({ signal }): Promise<Row[]> => (await dataProvider.list(entity, { perPage: 1000 }, signal)).data.data,
    staleTime: 120_000,
  });

export function useLookup(entity: LookupEntity) {
  return useQuery(lookupQueryOptions(entity));
}
