import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, mockFetch, type RecordedCall } from '../../../test/fetch-mock';
import { fakeDefinition, fakeTables } from '../../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';
import { renderUi } from '../../../test/render-ui';
import { LocationPartnersPanel } from './location-partners-panel';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }]);
const SLOW = { timeout: 45_000 };
const WAIT = { timeout: 10_000 };

const location = { location_id: 3, location_name: 'Zentrum', locationtype_id: 1, company_id: 1, company_id__label: 'Nordhandel Retail GmbH',
  location_total_area: 100, location_start_date: '2020-01-01', address_id: 5, state: 'Bayern', row_version: 2 };
const address = { address_id: 5, address_street: 'Marktplatz', address_house_number: '3', city_zip: '80331', city_name: 'München', country_name: 'Deutschland', row_version: 1 };

function api(partners: Record<string, unknown>[]) {
  const tables = fakeTables({
    location: { def: fakeDefinition('location'), rows: [location] },
    partnercompany: { def: fakeDefinition('partnercompany'), rows: [{ partnercompany_id: 1, partnercompany_name: 'Rheinland Immobilien GmbH' }] },
    partnertype: { def: fakeDefinition('partnertype'), rows: [{ partnertype_id: 1, partnertype_name: 'Vermieter' }] },
    company: { def: fakeDefinition('company'), rows: [{ company_id: 1, company_name: 'Nordhandel Retail GmbH' }] },
    locationtype: { def: fakeDefinition('locationtype'), rows: [{ locationtype_id: 1, locationtype_name: 'Innenstadt' }] },
    country: { def: fakeDefinition('country'), rows: [{ country_id: 1, country_name: 'Deutschland', country_short: 'DE' }] },
  });
  return (call: RecordedCall): Response | undefined => {
    if (call.url === '/locations/3' && call.method === 'GET') return json(200, { data: location, address });
    if (call.url.startsWith('/locations/3/partnercompanies')) return json(200, { data: partners, links: { pagination: { current_page: 1, last_page: 1, total: partners.length } } });
    if (call.url === '/locations/partnercompany' && call.method === 'POST') {
      const b = call.body as { valid_from: string; valid_to?: string };
      if (b.valid_to && b.valid_to <= b.valid_from) return json(422, { detail: [{ loc: ['body', 'valid_to'], msg: 'Valid to must be after valid from', type: 'date_after' }] });
      partners.push({ location_partnercompany_id: 1, partnercompany_name: 'Rheinland Immobilien GmbH', partnertype_id__label: 'Vermieter', ...b });
      return json(201, { data: b });
    }
    if (call.url.startsWith('/users/state/')) return json(200, { state: 'Bayern', states: ['Bayern'], country: 'DE', places: ['München'] });
    return tables(call);
  };
}

/** Opens the select labelled `label` (once its lookup has answered) and picks `option`. */
async function pick(user: ReturnType<typeof userEvent.setup>, label: RegExp, option: string) {
  const box = await screen.findByRole('combobox', { name: label }, WAIT);
  await user.click(box);
  await user.click(await screen.findByRole('option', { name: option }, WAIT));
}

describe('the location page', SLOW, () => {
  it('adds a partner company for a period; valid-to before valid-from is shown on the field', async () => {
    // The panel alone, in Mantine's test environment (its selects open at once there).
    const partners: Record<string, unknown>[] = [];
    const handler = api(partners);
    const server = mockFetch((call) => handler(call) ?? json(404, { detail: 'not found' }));
    renderUi(<LocationPartnersPanel locationId={3} canAdd />);
    const user = userEvent.setup();
    const panel = await screen.findByTestId('location-partners', {}, WAIT);
    expect(await within(panel).findByTestId('empty-state', {}, WAIT)).toHaveTextContent('No partner companies yet');
    await pick(user, /^Partner company/, 'Rheinland Immobilien GmbH');
    await pick(user, /^Partner type/, 'Vermieter');
    const from = within(panel).getByLabelText(/^Valid from/);
    const to = within(panel).getByLabelText(/^Valid to/);
    await user.type(from, '2025-01-01');
    await user.type(to, '2024-01-01');
    await user.click(within(panel).getByRole('button', { name: 'Add partner company' }));
    expect(await within(panel).findByText('Valid to must be after valid from', {}, WAIT)).toBeInTheDocument();
    expect(to).toHaveAttribute('aria-invalid', 'true');
    await user.clear(to);
    await user.type(to, '2026-01-01');
    await user.click(within(panel).getByRole('button', { name: 'Add partner company' }));
    expect(await screen.findByText('Partner company added', {}, WAIT)).toBeInTheDocument();
    expect(await within(panel).findByRole('cell', { name: 'Rheinland Immobilien GmbH' }, WAIT)).toBeInTheDocument();
    const posts = server.calls.filter((c) => c.method === 'POST' && c.url === '/locations/partnercompany');
    expect(posts.at(-1)!.body).toEqual({ location_id: 3, partnercompany_id: 1, partnertype_id: 1, valid_from: '2025-01-01', valid_to: '2026-01-01' });
  });

  it('saves the location with its address in one PUT', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/table/location/view/3', admin, (call) =>
      call.url === '/locations' && call.method === 'PUT' ? json(200, { data: { ...location, row_version: 3 }, address }) : api([])(call),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit' }, WAIT));
    const name = screen.getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Zentrum Ost');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Location saved', {}, WAIT)).toBeInTheDocument();
    const put = server.calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ location_id: 3, row_version: 2, location_name: 'Zentrum Ost', company_id: 1, locationtype_id: 1,
      address: { edit: true, address_id: 5, row_version: 1, city_zip: '80331', country_id: 1 } });
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAttribute('readonly'), WAIT);
  });
});
