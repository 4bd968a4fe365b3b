import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** What POST /locations sends: the location and a new address (its city found or created on the server). */
export interface LocationInput {
  location_name: string;
  locationtype_id: number;
  company_id: number;
  address: {
    address_street: string;
    address_house_number: string;
    city_zip: string;
    city_name: string;
    country_id: number;
  };
}

/** POST /locations: a location with its address, in one transaction. */
export function createLocation(input: LocationInput): Promise<{ data: { location_id: number } }> {
  return api.post<{ data: { location_id: number } }>('/locations', input);
}

export function useCreateLocation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createLocation, onSuccess: () => void client.invalidateQueries() });
}
