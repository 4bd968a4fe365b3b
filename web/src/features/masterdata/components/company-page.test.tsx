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
const lead = makeUser([
  { action: 'read', subject: 'company' },
  { action: 'update', subject: 'company' },
]);
const SLOW = { timeout: 45_000 };
const WAIT = { timeout: 10_000 };

const company = { company_id: 1, customergroup_id: 1, customergroup_id__label: 'Nordhandel Gruppe', company_name: 'Nordhandel Retail GmbH',
  company_shortname: 'NHR', company_buchungskreis: '1000', row_version: 3 };
const address = { address_id: 9, address_street: 'Hauptstraße', address_house_number: '1', address_extra: null, city_zip: '20095',
  city_name: 'Hamburg', country_name: 'Deutschland', row_version: 2 };

function api(opts: { save?: (call: RecordedCall) => Response } = {}) {
  const tables = fakeTables({
    company: { def: fakeDefinition('company', { relations: [
      { api: 'company_tax_rates_rel', label: 'Tax rates (generic)', target: 'taxrate', kind: 'has_many', foreign_key: 'company_id' },
      { api: 'company_pos_rel', label: 'Points of sale', target: 'pos', kind: 'has_many', foreign_key: 'company_id' },
    ] as never }), rows: [company] },
    customergroup: { def: fakeDefinition('customergroup'), rows: [{ customergroup_id: 1, customergroup_name: 'Nordhandel Gruppe' }] },
    country: { def: fakeDefinition('country'), rows: [{ country_id: 1, country_name: 'Deutschland', country_short: 'DE' }] },
    pos: { def: fakeDefinition('pos'), rows: [] },
  });
  return (call: RecordedCall): Response | undefined => {
    if (call.url === '/companies/1' && call.method === 'GET') return json(200, { data: company, address });
    if (call.url === '/companies/' && call.method === 'PUT') return opts.save ? opts.save(call) : json(200, { data: { ...company, row_version: 4 }, address });
    if (call.url.startsWith('/companies/1/tax-rates')) return json(200, { data: [] });
    const zip = /^\/users\/state\/(\d+)/.exec(call.url);
    if (zip) return zip[1] === '10115' ? json(200, { state: 'Berlin', states: ['Berlin'], country: 'DE', places: ['Berlin'] }) : json(200, { state: 'Hamburg', states: ['Hamburg'], country: 'DE', places: ['Hamburg'] });
    return tables(call);
  };
}

describe('the company page', SLOW, () => {
  it('edits company and address in one PUT; the state follows the postal code', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/table/company/view/1?edit=true', admin, api());
    const user = userEvent.setup();
    const zip = await screen.findByRole('textbox', { name: /^Postal code/ }, WAIT);
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^State/ })).toHaveValue('Hamburg'), WAIT);
    await user.clear(zip);
    await user.type(zip, '10115');
    // Looked up only once typing has paused for 1,600 ms.
    expect(server.calls.some((c) => c.url.startsWith('/users/state/10115'))).toBe(false);
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^State/ })).toHaveValue('Berlin'), WAIT);
    expect(server.calls.filter((c) => c.url.startsWith('/users/state/1')).map((c) => c.url)).toEqual(['/users/state/10115']);
    await user.clear(screen.getByRole('textbox', { name: /^City/ }));
    await user.type(screen.getByRole('textbox', { name: /^City/ }), 'Berlin');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = server.calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({
      company_id: 1, row_version: 3, company_name: 'Nordhandel Retail GmbH',
      address: { edit: true, address_id: 9, row_version: 2, city_zip: '10115', city_name: 'Berlin', country_id: 1 },
    });
    expect(await screen.findByText('Company saved', {}, WAIT)).toBeInTheDocument();
  });

  it("says 'Error while saving the company' and marks the field of a 422", async () => {
    loginAs(admin);
    renderApp('/app/table/company/view/1?edit=true', admin, api({
      save: () => json(422, { detail: [{ loc: ['body', 'address.city_zip'], msg: 'Unknown postal code 00000', type: 'value_error' }] }),
    }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save' }, WAIT));
    expect(await screen.findByText('Error while saving the company', {}, WAIT)).toBeInTheDocument();
    expect(screen.getAllByText('Unknown postal code 00000').length).toBeGreaterThan(0);
    expect(screen.getByRole('textbox', { name: /^Postal code/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the tax rates tab instead of the generic one to administrators only', async () => {
    loginAs(admin);
    const first = renderApp('/app/table/company/view/1', admin, api());
    expect(await screen.findByRole('tab', { name: 'Tax rates' }, WAIT)).toBeInTheDocument();
    expect(await screen.findByTestId('empty-state', {}, WAIT)).toHaveTextContent('no tax rates yet');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Points of sale' })).toBeInTheDocument(), WAIT);
    expect(screen.queryByRole('tab', { name: 'Tax rates (generic)' })).toBeNull();
    // Read-only until Edit.
    expect(screen.getByRole('textbox', { name: /^Company name/ })).toHaveAttribute('readonly');
    first.unmount();
    session.clear();
    loginAs(lead);
    const { server } = renderApp('/app/table/company/view/1', lead, api());
    expect(await screen.findByRole('button', { name: 'Edit' }, WAIT)).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Tax rates' })).toBeNull();
    expect(server.calls.some((c) => c.url.includes('tax-rates'))).toBe(false);
  });

  it('creates company and address in one POST and opens the new company', async () => {
    loginAs(admin);
    const created = { ...company, company_id: 5, company_name: 'Südmarkt Neu GmbH', company_shortname: 'SMN', company_buchungskreis: '' };
    const base = api();
    const { server } = renderApp('/app/table/company/create', admin, (call) => {
      if (call.url === '/companies/' && call.method === 'POST') return json(201, { data: created, address: { ...address, city_zip: '10115' } });
      if (call.url === '/companies/5' && call.method === 'GET') return json(200, { data: created, address });
      return base(call);
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'New company' }, WAIT)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Company name/ }), 'Südmarkt Neu GmbH');
    await user.type(screen.getByRole('textbox', { name: /^Short name/ }), 'SMN');
    await user.type(screen.getByLabelText(/^Customer group/, { selector: 'input' }), 'Nord');
    // The app's dropdown transition keeps the list display:none under jsdom.
    await user.click(await screen.findByRole('option', { name: 'Nordhandel Gruppe', hidden: true }, WAIT));
    await user.type(screen.getByRole('textbox', { name: /^Street/ }), 'Torstraße');
    await user.type(screen.getByRole('textbox', { name: /^House number/ }), '5');
    await user.type(screen.getByRole('textbox', { name: /^Postal code/ }), '10115');
    await user.type(screen.getByRole('textbox', { name: /^City/ }), 'Berlin');
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^State/ })).toHaveValue('Berlin'), WAIT);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'POST' && c.url === '/companies/')).toBe(true));
    expect(server.calls.find((c) => c.method === 'POST' && c.url === '/companies/')!.body).toEqual({
      customergroup_id: 1, company_name: 'Südmarkt Neu GmbH', company_shortname: 'SMN', company_buchungskreis: '',
      address: { edit: true, address_street: 'Torstraße', address_house_number: '5', city_zip: '10115', city_name: 'Berlin', country_id: 1 },
    });
    expect(await screen.findByText('Company created', {}, WAIT)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Südmarkt Neu GmbH' }, WAIT)).toBeInTheDocument();
  });

  it("says 'Error while saving the company' when the create fails", async () => {
    loginAs(admin);
    const base = api();
    renderApp('/app/table/company/create', admin, (call) =>
      call.url === '/companies/' && call.method === 'POST'
        ? json(422, { detail: [{ loc: ['body', 'company_name'], msg: 'Field required', type: 'missing' }] })
        : base(call),
    );
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /^Short name/ }, WAIT), 'X');
    // The browser's required check would stop an empty name; submit the form directly.
    screen.getByRole('textbox', { name: /^Company name/ }).closest('form')!.noValidate = true;
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error while saving the company', {}, WAIT)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Company name/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a missing company as such', async () => {
    loginAs(admin);
    renderApp('/app/table/company/view/7', admin, (call) => (call.url === '/companies/7' ? json(404, { detail: 'Not found' }) : undefined));
    const text = await screen.findByText('This record does not exist or you may not see it.', {}, WAIT);
    expect(text.closest('[role="alert"]')).not.toBeNull();
  });

  it('asks before leaving with unsaved changes, by Cancel or by a link', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/table/company/view/1?edit=true', admin, api());
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: /^Company name/ }, WAIT);
    await waitFor(() => expect(name).not.toHaveAttribute('readonly'), WAIT);
    await user.type(name, 'X');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Discard changes?' }, WAIT)).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('textbox', { name: /^Company name/ })).toHaveValue('Nordhandel Retail GmbHX');
    await user.click(screen.getByRole('link', { name: 'Back to the list' }));
    const leave = await screen.findByRole('dialog', { name: 'Unsaved changes' }, WAIT);
    await user.click(within(leave).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('textbox', { name: /^Company name/ })).toHaveValue('Nordhandel Retail GmbHX');
    await user.click(screen.getByRole('link', { name: 'Back to the list' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' }, WAIT)).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: /^Company name/ })).toBeNull(), WAIT);
    expect(server.calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});
