import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AddressInput } from './address';
import type { LocationAnswer } from './get-location';
import { masterdataKeys } from './keys';

/** What PUT /locations sends: the location (named by id and row_version) and its address. */
export interface LocationUpdate {
  location_id: number;
  row_version: number;
  location_name: string;
  locationtype_id: number;
  company_id: number;
  location_total_area?: number | null;
  location_start_date?: string | null;
  address?: AddressInput;
}

/** PUT /locations: location and address in one transaction. */
export function updateLocation(input: LocationUpdate): Promise<LocationAnswer> {
  return api.put<LocationAnswer>('/locations', input, { silent: true });
}

export function useUpdateLocation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateLocation,
    onSuccess: (answer, input) => {
      client.setQueryData(masterdataKeys.location(input.location_id), answer);
      void client.invalidateQueries({ queryKey: ['tables'] });
    },
  });
}
