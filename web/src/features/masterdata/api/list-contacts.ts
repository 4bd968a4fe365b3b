import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CustomList } from './custom-list';
import { masterdataKeys } from './keys';

/** Contact persons per page of the contacts screen. */
export const CONTACTS_PER_PAGE = 25;

/** GET /contacts: the contact persons the caller sees, those of one partner company with partnercompany_id. */
export function listContacts(partnerCompanyId: number | null, keyword: string, page: number, signal?: AbortSignal): Promise<CustomList> {
  return api.get<CustomList>('/contacts', {
    query: { partnercompany_id: partnerCompanyId ?? undefined, keyword: keyword || undefined, page, per_page: CONTACTS_PER_PAGE },
    signal,
    silent: true,
  });
}

export function useContacts(partnerCompanyId: number | null, keyword: string, page: number) {
  return useQuery({
    queryKey: masterdataKeys.contacts(partnerCompanyId, keyword, page),
    queryFn: ({ signal }) => listContacts(partnerCompanyId, keyword, page, signal),
    placeholderData: keepPreviousData,
  });
}
