import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { calendarLinkKey } from './get-calendar-link';

/** DELETE /user/calendar: the caller's calendar link stops working. */
export const revokeCalendarLink = () => api.delete<void>('/user/calendar');

export function useRevokeCalendarLink() {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeCalendarLink, onSuccess: () => client.invalidateQueries({ queryKey: calendarLinkKey }) });
}
