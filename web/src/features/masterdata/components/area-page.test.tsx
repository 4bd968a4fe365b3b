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

const area = { area_id: 8, location_id: 3, location_id__label: 'Zentrum', areatype_id: 1, area_name: 'Verkaufsfläche EG', area_name_external: 'Shop',
  area_space_value: 120.5, usagetype_id: 1, area_usage_valid_from: '2024-01-01', area_usage_valid_to: null, row_version: 4 };

function api(update?: (call: RecordedCall) => Response) {
  const tables = fakeTables({
    area: { def: fakeDefinition('area', { relations: [
      { api: 'area_contract_rel', label: 'Contracts', target: 'contract', kind: 'many_to_many', foreign_key: 'area_id' },
    ] as never }), rows: [area] },
    location: { def: fakeDefinition('location'), rows: [{ location_id: 3, location_name: 'Zentrum' }] },
    areatype: { def: fakeDefinition('areatype'), rows: [{ areatype_id: 1, areatype_name: 'Verkauf' }] },
    usagetype: { def: fakeDefinition('usagetype'), rows: [{ usagetype_id: 1, usagetype_name: 'Einzelhandel' }] },
    contract: { def: fakeDefinition('contract'), rows: [] },
  });
  return (call: RecordedCall): Response | undefined => {
    const body = call.body as { action?: string } | undefined;
    if (body?.action === 'update' && update) return update(call);
    return tables(call);
  };
}

const dateInput = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });

describe('the area page', SLOW, () => {
  it('is read-only until Edit, then saves the usage dates through the table API; a 422 marks its field', async () => {
    loginAs(admin);
    let answer = json(422, { detail: [{ loc: ['body', 'area_usage_valid_to'], msg: 'Usage valid to must be after usage valid from', type: 'date_after' }] });
    const { server } = renderApp('/app/table/area/view/8', admin, api(() => answer));
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Verkaufsfläche EG' }, WAIT)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAttribute('readonly');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Contracts' })).toBeInTheDocument(), WAIT);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const to = await waitFor(() => {
      const input = dateInput(/^Usage valid to/);
      expect(input).not.toHaveAttribute('readonly');
      return input;
    }, WAIT);
    await user.type(to, '2026-06-30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error while saving the area', {}, WAIT)).toBeInTheDocument();
    expect(dateInput(/^Usage valid to/)).toHaveAttribute('aria-invalid', 'true');
    const put = server.calls.find((c) => (c.body as { action?: string })?.action === 'update')!;
    expect(put.body).toMatchObject({ entity: 'area', id: 8, row_version: 4,
      data: { area_usage_valid_from: '2024-01-01', area_usage_valid_to: '2026-06-30', area_space_value: 120.5, location_id: 3 } });
    answer = json(200, { data: { ...area, area_usage_valid_to: '2026-06-30', row_version: 5 } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Area saved', {}, WAIT)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save' })).toBeNull(), WAIT);
  });

  it('will not save an end before the start, and asks before discarding changes', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/table/area/view/8?edit=true', admin, api());
    const user = userEvent.setup();
    const to = await waitFor(() => {
      const input = dateInput(/^Usage valid to/);
      expect(input).not.toHaveAttribute('readonly');
      return input;
    }, WAIT);
    await user.type(to, '2023-12-31');
    expect(screen.getByText('Must not be before the start of the usage')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard changes?' }, WAIT);
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(dateInput(/^Usage valid to/)).toHaveValue('2023-12-31');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Discard changes?' }, WAIT)).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save' })).toBeNull(), WAIT);
    expect(server.calls.some((c) => (c.body as { action?: string })?.action === 'update')).toBe(false);
  });

  it('shows the stale-edit dialog when someone else changed the area, and reloads it', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/table/area/view/8?edit=true', admin, api(() => json(409, { detail: 'Changed meanwhile', code: 'stale' })));
    const user = userEvent.setup();
    const name = await waitFor(() => {
      const input = screen.getByRole('textbox', { name: /^Name/ });
      expect(input).not.toHaveAttribute('readonly');
      return input;
    }, WAIT);
    await user.type(name, ' Nord');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'The record was changed' }, WAIT);
    const reads = server.calls.filter((c) => (c.body as { action?: string })?.action === 'read').length;
    await user.click(within(dialog).getByRole('button', { name: 'Reload the record' }));
    await waitFor(() => expect(server.calls.filter((c) => (c.body as { action?: string })?.action === 'read').length).toBeGreaterThan(reads), WAIT);
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Verkaufsfläche EG'), WAIT);
    expect(screen.queryByRole('dialog', { name: 'The record was changed' })).toBeNull();
  });
});

