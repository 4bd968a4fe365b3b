import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, fieldPath, type ApiError } from '../../../lib/api-client';
import type { AddressInput } from './address';

/** What POST /tickets/{id}/customer sends: the new customer in four parts and the ticket's row_version. */
export interface NewCustomerInput {
  ticketId: number;
  row_version: number;
  customergroup: { customergroup_name: string; customergroup_description?: string };
  company: { company_name: string; company_shortname: string; company_buchungskreis?: string; address?: AddressInput };
  contactperson: {
    contactperson_firstname: string;
    contactperson_lastname: string;
    contactsalutation_id: number;
    contactperson_function?: string;
    contactdetails?: { contactdetails_email?: string; contactdetails_phone?: string };
  };
  pos: { pos_name: string; pos_branchnumber: string; pos_first_year: number; pos_opening_date: string };
}

/** The keys of what the new-business flow created. */
export interface NewCustomerAnswer {
  ticket_id: number;
  customergroup_id: number;
  company_id: number;
  contactperson_id: number;
  pos_id: number;
}

/** The four parts of the new-business form, in the order they are written. */
export const NEW_CUSTOMER_PARTS = ['customergroup', 'company', 'contactperson', 'pos'] as const;
export type NewCustomerPart = (typeof NEW_CUSTOMER_PARTS)[number];

/**
 * The field errors of a refused new customer by part: loc ["body", "company",
 * "company_name"] → errors.company.company_name; ["body", "company",
 * "address.city_zip"] → errors.company["address.city_zip"]; a missing part
 * (["body", "pos"]) → errors.pos[""].
 */
export function partErrors(error: ApiError): Partial<Record<NewCustomerPart, Record<string, string>>> {
  const out: Partial<Record<NewCustomerPart, Record<string, string>>> = {};
  if (!Array.isArray(error.detail)) return out;
  for (const issue of error.detail) {
    const [part = '', ...rest] = fieldPath(issue.loc).map(String);
    const field = rest.join('.');
    if (!(NEW_CUSTOMER_PARTS as readonly string[]).includes(part)) continue;
    const bucket = (out[part as NewCustomerPart] ??= {});
    bucket[field] ??= issue.msg;
  }
  return out;
}

/** POST /tickets/{id}/customer: all four parts and the ticket's move in one transaction. */
export function useCreateNewCustomer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, ...body }: NewCustomerInput) =>
      api.post<NewCustomerAnswer>(`/tickets/${ticketId}/customer`, body, { silent: true }),
    onSuccess: () => void client.invalidateQueries(),
  });
}
