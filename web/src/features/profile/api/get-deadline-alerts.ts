import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The caller's choices about the daily digest of their deadlines. */
export interface DeadlineAlertSettings {
  digest: boolean;
  /** Days before a notice date, longest first. */
  horizons: number[];
}

/** GET /user/deadline-alerts. */
export const getDeadlineAlerts = (signal?: AbortSignal) =>
  api.get<{ data: DeadlineAlertSettings }>('/user/deadline-alerts', { signal }).then((a) => a.data);

export const deadlineAlertsKey = ['user', 'deadline-alerts'] as const;

export const deadlineAlertsQueryOptions = () =>
  queryOptions({ queryKey: deadlineAlertsKey, queryFn: ({ signal }) => getDeadlineAlerts(signal) });

export function useDeadlineAlerts() {
  return useQuery(deadlineAlertsQueryOptions());
}
