import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { LightThresholds } from '../components/traffic-light';

/** GET /contracts/deadlines/lights: the days at which a deadline turns red and yellow. */
export const getLightThresholds = (signal?: AbortSignal) => api.get<LightThresholds>('/contracts/deadlines/lights', { signal });

export const lightThresholdsQueryOptions = () =>
  queryOptions({
    queryKey: ['contracts', 'deadline-lights'],
    queryFn: ({ signal }) => getLightThresholds(signal),
    // Settings of the server: they change with a restart at most.
    staleTime: 60 * 60 * 1000,
  });

/** The thresholds; `enabled` false asks nothing (a screen that may show no deadlines). */
export function useLightThresholds(enabled = true) {
  return useQuery({ ...lightThresholdsQueryOptions(), enabled });
}
