import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { fakeDefinition, fakeTables } from '../../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }]);
const SLOW = { timeout: 45_000 };
const WAIT = { timeout: 10_000 };

const contact = { contactperson_id: 4, contactperson_firstname: 'Anna', contactperson_lastname: 'Berg', contactperson_shortname: 'AB',
  contactsalutation_id: 1, contactsalutation_id__label: 'Frau', contacttitle_id: null, contactperson_department: null,
  contactperson_function: 'Einkauf', company_id: 1, company_id__label: 'Nordhandel Retail GmbH', partnercompany_id: null, row_version: 3 };
const details = { contactdetails_id: 7, contactdetails_email: 'anna@example.com', contactdetails_phone: '030 1234', row_version: 2 };

function api(opts: { save?: (call: RecordedCall) => Response; answer?: object } = {}) {
  const tables = fakeTables({
    contactperson: { def: fakeDefinition('contactperson'), rows: [contact] },
    contactsalutation: { def: fakeDefinition('contactsalutation'), rows: [{ contactsalutation_id: 1, contactsalutation_name: 'Frau' }] },
    contacttitle: { def: fakeDefinition('contacttitle'), rows: [] },
    company: { def: fakeDefinition('company'), rows: [{ company_id: 1, company_name: 'Nordhandel Retail GmbH' }] },
    partnercompany: { def: fakeDefinition('partnercompany'), rows: [] },
    country: { def: fakeDefinition('country'), rows: [{ country_id: 1, country_name: 'Deutschland', country_short: 'DE' }] },
  });
  return (call: RecordedCall): Response | undefined => {
    if (call.url === '/contacts/4' && call.method === 'GET') return json(200, opts.answer ?? { data: contact, contactdetails: details, address: null });
    if (call.url === '/contacts' && (call.method === 'PUT' || call.method === 'POST') && opts.save) return opts.save(call);
    if (/^\/users\/state\/10115/.test(call.url)) return json(200, { state: 'Berlin', states: ['Berlin'], country: 'DE', places: ['Berlin'] });
    return tables(call);
  };
}

describe('the contact person page', SLOW, () => {
  it('shows the contact read-only with an empty state for the missing address', async () => {
    loginAs(admin);
    renderApp('/app/table/contactperson/view/4', admin, api());
    expect(await screen.findByRole('heading', { name: 'Anna Berg' }, WAIT)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^First name/ })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: /^Short name/ })).toHaveValue('AB');
    expect(screen.getByRole('textbox', { name: /^E-mail/ })).toHaveValue('anna@example.com');
    expect(screen.getByTestId('empty-state')).toHaveTextContent('No address yet');
  });

  it('creates contact, details and address in one POST and opens the new contact', async () => {
    loginAs(admin);
    const created = { ...contact, contactperson_id: 5, contactperson_firstname: 'Clara', contactperson_shortname: 'CB' };
    const { server } = renderApp('/app/table/contactperson/create', admin, (call) => {
      if (call.url === '/contacts' && call.method === 'POST') return json(201, { data: created, contactdetails: null, address: { address_id: 1, city_zip: '10115', row_version: 1 } });
      if (call.url === '/contacts/5') return json(200, { data: created, contactdetails: null, address: { address_id: 1, city_zip: '10115', row_version: 1 } });
      return api()(call);
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'New contact person' }, WAIT)).toBeInTheDocument();
    await user.click(screen.getByLabelText(/^Salutation/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Frau', hidden: true }, WAIT));
    await user.type(screen.getByRole('textbox', { name: /^First name/ }), 'Clara');
    await user.type(screen.getByRole('textbox', { name: /^Last name/ }), 'Berg');
    expect(screen.getByRole('textbox', { name: /^Short name/ })).toHaveValue('CB');
    await user.type(screen.getByRole('textbox', { name: /^Street/ }), 'Torstraße');
    await user.type(screen.getByRole('textbox', { name: /^House number/ }), '5');
    await user.type(screen.getByRole('textbox', { name: /^Postal code/ }), '10115');
    await user.type(screen.getByRole('textbox', { name: /^City/ }), 'Berlin');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'POST' && c.url === '/contacts')).toBe(true));
    const post = server.calls.find((c) => c.method === 'POST' && c.url === '/contacts')!;
    expect(post.body).toEqual({
      contactperson_firstname: 'Clara', contactperson_lastname: 'Berg', contactsalutation_id: 1, contacttitle_id: null,
      contactperson_department: null, contactperson_function: null, company_id: null, partnercompany_id: null,
      address: { edit: true, address_street: 'Torstraße', address_house_number: '5', city_zip: '10115', city_name: 'Berlin', country_id: 1 },
    });
    expect(await screen.findByText('Contact person created', {}, WAIT)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Clara Berg' }, WAIT)).toBeInTheDocument();
  });

  it("marks the field of a 422 and says 'Error while saving the contact person'", async () => {
    loginAs(admin);
    renderApp('/app/table/contactperson/view/4?edit=true', admin, api({
      save: () => json(422, { detail: [{ loc: ['body', 'contactdetails.contactdetails_email'], msg: 'Enter a valid e-mail address', type: 'email' }] }),
    }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save' }, WAIT));
    expect(await screen.findByText('Error while saving the contact person', {}, WAIT)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^E-mail/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers to reload after a stale save, and asks before discarding changes', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/table/contactperson/view/4?edit=true', admin, api({ save: () => json(409, { detail: 'Changed meanwhile', code: 'stale' }) }));
    const user = userEvent.setup();
    const first = await screen.findByRole('textbox', { name: /^First name/ }, WAIT);
    await waitFor(() => expect(first).not.toHaveAttribute('readonly'), WAIT);
    await user.type(first, 'x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const stale = await screen.findByRole('dialog', { name: 'The record was changed' }, WAIT);
    await user.click(within(stale).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('textbox', { name: /^First name/ })).toHaveValue('Annax');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const discard = await screen.findByRole('dialog', { name: 'Discard changes?' }, WAIT);
    await user.click(within(discard).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save' })).toBeNull(), WAIT);
    expect(server.calls.filter((c) => c.method === 'PUT').length).toBe(1);
  });
});
