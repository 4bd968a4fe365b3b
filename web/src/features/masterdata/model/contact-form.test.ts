import { describe, expect, it } from 'vitest';
import type { ContactAnswer } from '../api/get-contact';
import { contactFormValues, contactInput, contactShortname, isBlankDetails } from './contact-form';

const stored: ContactAnswer = {
  data: { contactperson_id: 4, row_version: 3, contactperson_firstname: 'Anna', contactperson_lastname: 'Berg', contactsalutation_id: 2,
    contacttitle_id: null, contactperson_department: null, contactperson_function: 'Einkauf', company_id: 1, partnercompany_id: null },
  contactdetails: { contactdetails_id: 7, row_version: 2, contactdetails_email: 'anna@example.com', contactdetails_phone: null },
  address: { address_id: 9, row_version: 5, address_street: 'Torstraße', address_house_number: '5', city_zip: '10115', city_name: 'Berlin' },
};

describe('the contact person form', () => {
  it('derives the shortname as the server does: first letters, upper case', () => {
    expect(contactShortname(' anna', 'berg ')).toBe('AB');
    expect(contactShortname('Özlem', '')).toBe('Ö');
    expect(contactShortname('', '')).toBe('');
  });

  it('sends a new contact without empty details or address, blanks as null', () => {
    const v = contactFormValues(null);
    v.contact = { ...v.contact, salutation: '2', firstname: ' Anna ', lastname: 'Berg', company: '1' };
    expect(isBlankDetails(v.details)).toBe(true);
    expect(contactInput(v, 1, null)).toEqual({
      contactperson_firstname: 'Anna', contactperson_lastname: 'Berg', contactsalutation_id: 2, contacttitle_id: null,
      contactperson_department: null, contactperson_function: null, company_id: 1, partnercompany_id: null,
    });
  });

  it('sends new details and a new address when they are filled in', () => {
    const v = contactFormValues(null);
    v.contact = { ...v.contact, salutation: '2', firstname: 'Anna', lastname: 'Berg' };
    v.details = { ...v.details, email: 'anna@example.com' };
    v.address = { ...v.address, street: 'Torstraße', house: '5', zip: '10115', city: 'Berlin' };
    const input = contactInput(v, 1, null);
    expect(input.contactdetails).toEqual({ contactdetails_email: 'anna@example.com', contactdetails_phone: null, contactdetails_mobile: null,
      contactdetails_fax: null, contactdetails_website: null });
    expect(input.address).toEqual({ edit: true, address_street: 'Torstraße', address_house_number: '5', city_zip: '10115', city_name: 'Berlin', country_id: 1 });
    expect(input.contactperson_id).toBeUndefined();
  });

  it('changes the stored contact, details and address in place, named by key and row_version', () => {
    const v = contactFormValues(stored);
    expect(v.contact.firstname).toBe('Anna');
    expect(v.details.email).toBe('anna@example.com');
    v.details.phone = '030 1234';
    const input = contactInput(v, 1, stored);
    expect(input).toMatchObject({ contactperson_id: 4, row_version: 3, company_id: 1, contactperson_function: 'Einkauf',
      contactdetails: { contactdetails_id: 7, row_version: 2, contactdetails_phone: '030 1234' },
      address: { edit: true, address_id: 9, row_version: 5, city_zip: '10115' } });
  });

  it('keeps sending stored details that were emptied, so they are cleared', () => {
    const v = contactFormValues(stored);
    v.details.email = '';
    expect(contactInput(v, 1, stored).contactdetails).toMatchObject({ contactdetails_id: 7, contactdetails_email: null });
  });
});
