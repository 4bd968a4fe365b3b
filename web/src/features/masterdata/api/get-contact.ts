import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import { masterdataKeys } from './keys';

/** A contact person with its contact details and address (null without), as GET /contacts/{id} and the saves answer it. */
export interface ContactAnswer {
  data: Row;
  contactdetails: Row | null;
  address: Row | null;
}

/** GET /contacts/{id}. */
export function getContact(id: number, signal?: AbortSignal): Promise<ContactAnswer> {
  return api.get<ContactAnswer>(`/contacts/${id}`, { signal, silent: true });
}

export const contactQueryOptions = (id: number) =>
  queryOptions({ queryKey: masterdataKeys.contact(id), queryFn: ({ signal }) => getContact(id, signal) });

export function useContact(id: number) {
  return useQuery({ ...contactQueryOptions(id), enabled: id > 0 });
}
