import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Whether the caller holds a calendar link; its URL cannot be read again (only a hash is stored). */
export interface CalendarLinkState {
  exists: boolean;
  /** When it was made (ISO), when one exists. */
  created_at?: string;
}

/** GET /user/calendar. */
export const getCalendarLink = (signal?: AbortSignal) => api.get<CalendarLinkState>('/user/calendar', { signal });

export const calendarLinkKey = ['user', 'calendar-link'] as const;

export const calendarLinkQueryOptions = () => queryOptions({ queryKey: calendarLinkKey, queryFn: ({ signal }) => getCalendarLink(signal) });

export function useCalendarLink() {
  return useQuery(calendarLinkQueryOptions());
}
