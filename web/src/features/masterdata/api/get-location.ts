import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import { masterdataKeys } from './keys';

/** A location with its address, as GET /locations/{id} and the saves answer it. */
export interface LocationAnswer {
  data: Row;
  address: Row | null;
}

/** GET /locations/{id}. */
export function getLocation(id: number, signal?: AbortSignal): Promise<LocationAnswer> {
  return api.get<LocationAnswer>(`/locations/${id}`, { signal, silent: true });
}

export const locationQueryOptions = (id: number) =>
  queryOptions({ queryKey: masterdataKeys.location(id), queryFn: ({ signal }) => getLocation(id, signal) });

export function useLocation(id: number) {
  return useQuery(locationQueryOptions(id));
}
