import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** DELETE /user/calendar: the caller's calendar link stops working. */
export const revokeCalendarLink = () => api.delete<void>('/user/calendar');

export function useRevokeCalendarLink() {
  return useMutation({ mutationFn: revokeCalendarLink });
}
