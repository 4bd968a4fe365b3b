import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /user/calendar: a new secret link to the caller's calendar feed (the old one stops working). */
export const createCalendarLink = () => api.post<{ url: string }>('/user/calendar').then((a) => a.url);

export function useCreateCalendarLink() {
  return useMutation({ mutationFn: createCalendarLink });
}
