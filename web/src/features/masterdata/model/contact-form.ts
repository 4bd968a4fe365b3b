import type { Row } from '../../../lib/table-definition';
import { type AddressValues, addressInput, addressValues, isBlankAddress } from '../api/address';
import type { ContactAnswer } from '../api/get-contact';
import type { ContactDetailsInput, ContactInput } from '../api/save-contact';

/** The contact person fields of the form (keys as text, '' for none). */
export interface ContactValues {
  salutation: string;
  title: string;
  firstname: string;
  lastname: string;
  department: string;
  function: string;
  company: string;
  partnercompany: string;
}

/** The contact details fields of the form. */
export interface DetailsValues {
  email: string;
  phone: string;
  mobile: string;
  fax: string;
  website: string;
}

/** Everything the contact person form edits. */
export interface ContactFormValues {
  contact: ContactValues;
  details: DetailsValues;
  address: AddressValues;
}

const text = (row: Row | null | undefined, key: string) => (row?.[key] != null ? String(row[key]) : '');

/** The form values of a stored contact person (null: a new one). */
export function contactFormValues(answer: ContactAnswer | null): ContactFormValues {
  const row = answer?.data;
  const d = answer?.contactdetails;
  return {
    contact: {
      salutation: text(row, 'contactsalutation_id'),
      title: text(row, 'contacttitle_id'),
      firstname: text(row, 'contactperson_firstname'),
      lastname: text(row, 'contactperson_lastname'),
      department: text(row, 'contactperson_department'),
      function: text(row, 'contactperson_function'),
      company: text(row, 'company_id'),
      partnercompany: text(row, 'partnercompany_id'),
    },
    details: {
      email: text(d, 'contactdetails_email'),
      phone: text(d, 'contactdetails_phone'),
      mobile: text(d, 'contactdetails_mobile'),
      fax: text(d, 'contactdetails_fax'),
      website: text(d, 'contactdetails_website'),
    },
    address: addressValues(answer?.address),
  };
}

/** The shortname the server derives: the first letters of first and last name, upper case. */
export function contactShortname(firstname: string, lastname: string): string {
  const letter = (v: string) => [...v.trim()][0] ?? '';
  return (letter(firstname) + letter(lastname)).toUpperCase();
}

/** True when no contact details field is filled in. */
export function isBlankDetails(d: DetailsValues): boolean {
  return Object.values(d).every((v) => !v.trim());
}

const orNull = (v: string) => v.trim() || null;
const idOrNull = (v: string) => (v ? Number(v) : null);

/**
 * What a save sends for the form values `v`: the stored contact person
 * (`stored`) named by key and row_version, or a new one; its stored contact
 * details and address changed in place, or new ones when filled in (blank
 * ones are left out). countryId is the address's resolved country.
 */
export function contactInput(v: ContactFormValues, countryId: number, stored: ContactAnswer | null): ContactInput {
  const out: ContactInput = {
    contactperson_firstname: v.contact.firstname.trim(),
    contactperson_lastname: v.contact.lastname.trim(),
    contactsalutation_id: Number(v.contact.salutation),
    contacttitle_id: idOrNull(v.contact.title),
    contactperson_department: orNull(v.contact.department),
    contactperson_function: orNull(v.contact.function),
    company_id: idOrNull(v.contact.company),
    partnercompany_id: idOrNull(v.contact.partnercompany),
  };
  if (stored) {
    out.contactperson_id = Number(stored.data.contactperson_id);
    out.row_version = Number(stored.data.row_version ?? 0);
  }
  if (stored?.contactdetails || !isBlankDetails(v.details)) {
    const details: ContactDetailsInput = {
      contactdetails_email: orNull(v.details.email),
      contactdetails_phone: orNull(v.details.phone),
      contactdetails_mobile: orNull(v.details.mobile),
      contactdetails_fax: orNull(v.details.fax),
      contactdetails_website: orNull(v.details.website),
    };
    if (stored?.contactdetails) {
      details.contactdetails_id = Number(stored.contactdetails.contactdetails_id);
      details.row_version = Number(stored.contactdetails.row_version ?? 0);
    }
    out.contactdetails = details;
  }
  if (stored?.address || !isBlankAddress(v.address)) out.address = addressInput(v.address, countryId, stored?.address);
  return out;
}
