import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AddressInput } from './address';
import type { ContactAnswer } from './get-contact';
import { masterdataKeys } from './keys';

/** The contact details a contact person save sends: with contactdetails_id and row_version it changes the stored ones. */
export interface ContactDetailsInput {
  contactdetails_id?: number;
  row_version?: number;
  contactdetails_email: string | null;
  contactdetails_phone: string | null;
  contactdetails_mobile: string | null;
  contactdetails_fax: string | null;
  contactdetails_website: string | null;
}

/** What POST /contacts sends, and PUT /contacts with contactperson_id and row_version. */
export interface ContactInput {
  contactperson_id?: number;
  row_version?: number;
  contactperson_firstname: string;
  contactperson_lastname: string;
  contactsalutation_id: number;
  contacttitle_id: number | null;
  contactperson_department: string | null;
  contactperson_function: string | null;
  company_id: number | null;
  partnercompany_id: number | null;
  contactdetails?: ContactDetailsInput;
  address?: AddressInput;
}

/** POST /contacts (no contactperson_id) or PUT /contacts: contact person, details and address in one transaction. */
export function saveContact(input: ContactInput): Promise<ContactAnswer> {
  return input.contactperson_id
    ? api.put<ContactAnswer>('/contacts', input, { silent: true })
    : api.post<ContactAnswer>('/contacts', input, { silent: true });
}

export function useSaveContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveContact,
    onSuccess: (answer) => {
      client.setQueryData(masterdataKeys.contact(Number(answer.data.contactperson_id)), answer);
      void client.invalidateQueries({ queryKey: ['tables'] });
      void client.invalidateQueries({ queryKey: [...masterdataKeys.all, 'contacts'] });
    },
  });
}
