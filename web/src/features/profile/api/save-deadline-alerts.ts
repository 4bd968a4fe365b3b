import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type DeadlineAlertSettings, deadlineAlertsKey } from './get-deadline-alerts';

/** Whether PUT /user/deadline-alerts takes these horizons: one to five whole numbers of 1 to 365 days (the server checks the same). */
export function validHorizons(horizons: readonly number[]): boolean {
  const distinct = new Set(horizons);
  return distinct.size >= 1 && distinct.size <= 5 && horizons.every((h) => Number.isInteger(h) && h >= 1 && h <= 365);
}

/** PUT /user/deadline-alerts: answers the settings as stored (horizons longest first). */
export const saveDeadlineAlerts = (input: DeadlineAlertSettings) =>
  api
    .put<{ data: DeadlineAlertSettings }>('/user/deadline-alerts', { digest: input.digest, horizons: input.horizons })
    .then((a) => a.data);

export function useSaveDeadlineAlerts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveDeadlineAlerts,
    onSuccess: (stored) => client.setQueryData(deadlineAlertsKey, stored),
  });
}
