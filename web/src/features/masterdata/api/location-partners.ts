import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CustomList } from './custom-list';
import { masterdataKeys } from './keys';

/** GET /locations/{id}/partnercompanies: the partner companies of a location over time, ten to a page. */
export function listLocationPartners(locationId: number, page: number, signal?: AbortSignal): Promise<CustomList> {
  return api.get<CustomList>(`/locations/${locationId}/partnercompanies`, { query: { page }, signal, silent: true });
}

export function useLocationPartners(locationId: number, page: number) {
  return useQuery({
    queryKey: [...masterdataKeys.locationPartners(locationId), page],
    queryFn: ({ signal }) => listLocationPartners(locationId, page, signal),
    placeholderData: keepPreviousData,
  });
}

/** What POST /locations/partnercompany sends; valid_to, when given, after valid_from. */
export interface LocationPartnerInput {
  location_id: number;
  partnercompany_id: number;
  partnertype_id: number;
  /** YYYY-MM-DD */
  valid_from: string;
  valid_to?: string;
}

/** POST /locations/partnercompany: a partner company of the location for a period. */
export function addLocationPartner(input: LocationPartnerInput): Promise<unknown> {
  return api.post('/locations/partnercompany', input, { silent: true });
}

export function useAddLocationPartner(locationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: addLocationPartner,
    onSuccess: () => void client.invalidateQueries({ queryKey: masterdataKeys.locationPartners(locationId) }),
  });
}
