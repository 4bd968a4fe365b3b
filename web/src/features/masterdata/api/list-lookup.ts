import { queryOptions, useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { masterdataKeys } from './keys';

/** The lookup lists the master-data forms offer whole. */
export type LookupEntity =
  | 'company'
  | 'locationtype'
  | 'country'
  | 'contactperson'
  | 'contactsalutation'
  | 'contacttitle'
  | 'customergroup'
  | 'partnercompany'
  | 'partnertype'
  | 'location'
  | 'areatype'
  | 'usagetype';

export const lookupQueryOptions = (entity: LookupEntity) =>
  queryOptions({
    queryKey: masterdataKeys.lookup(entity),
    queryFn: async ({ signal }): Promise<Row[]> => (await dataProvider.list(entity, { perPage: 1000 }, signal)).data.data,
    staleTime: 60_000,
  });

export function useLookup(entity: LookupEntity) {
  return useQuery(lookupQueryOptions(entity));
}
