import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { calendarLinkKey } from './get-calendar-link';

/** POST /user/calendar: a new secret link to the caller's calendar feed (the old one stops working). */
export const createCalendarLink = () => api.post<{ url: string }>('/user/calendar').then((a) => a.url);

export function useCreateCalendarLink() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createCalendarLink, onSuccess: () => client.invalidateQueries({ queryKey: calendarLinkKey }) });
}
