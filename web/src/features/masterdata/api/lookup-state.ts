import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { masterdataKeys } from './keys';

/** The answer of GET /users/state/{zip}. */
export interface StateAnswer {
  state: string;
  states: string[];
  country: string;
  places: string[];
}

/** GET /users/state/{zip}: the state of a postal code (German by default). */
export function lookupState(zip: string, country: string, signal?: AbortSignal): Promise<StateAnswer> {
  return api.get<StateAnswer>(`/users/state/${encodeURIComponent(zip)}`, {
    query: { country: country === 'DE' ? undefined : country },
    signal,
    silent: true,
  });
}

export const stateQueryOptions = (zip: string, country: string) =>
  queryOptions({
    queryKey: masterdataKeys.state(country, zip),
    queryFn: ({ signal }) => lookupState(zip, country, signal),
    staleTime: Infinity,
    retry: false,
  });

/** The state of zip in country; disabled while zip is empty. */
export function useStateOfZip(zip: string, country: string) {
  return useQuery({ ...stateQueryOptions(zip, country), enabled: zip.trim().length >= 4 });
}
