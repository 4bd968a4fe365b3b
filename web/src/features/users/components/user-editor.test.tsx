import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TableDefinition } from '../../../lib/table-definition';
import { json, mockFetch, type RecordedCall } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import userDefinition from '../model/user-definition.fixture.json';
import { UserEditor } from './user-editor';

const USER = userDefinition as unknown as TableDefinition;

const ROWS: Record<string, Record<string, unknown>[]> = {
  usertype: [
    { usertype_id: 1, usertype_name: 'INTERN', usertype_external: 0 },
    { usertype_id: 2, usertype_name: 'EXTERN', usertype_external: 1 },
  ],
  role: [
    { role_id: 1, role_name: 'Administratoren', role_external: 0 },
    { role_id: 5, role_name: 'Lead', role_external: 1 },
  ],
  customergroup: [{ customergroup_id: 1, customergroup_name: 'Nordhandel Gruppe' }],
  company: [{ company_id: 2, company_name: 'Nordhandel Outlet GmbH', customergroup_id: 1 }],
};

const TEAMS = [
  { team_id: 1, team_name: 'MVM', team_type: 'intern', parent_id: null, team_for_all_customer: 1, team_description: null },
  { team_id: 6, team_name: 'MVM extern', team_type: 'extern_client', parent_id: 1, team_for_all_customer: 1, team_description: null },
];

/** A fake server: generic lists (with role_external narrowing), GET /teams, the password generator and POST /users. */
function serve(onCreate: (call: RecordedCall) => Response = () => json(201, { user_id: 12, detail: 'User Created' })) {
  return mockFetch((call) => {
    if (call.url.startsWith('/users/generate/password/')) return json(200, { password: 'Gen3rated-Pass!' });
    if (call.url.startsWith('/teams')) {
      const company = new URL(call.url, 'http://x').searchParams.get('company_id');
      return json(200, { data: company === '3' ? [] : TEAMS, links: { pagination: { current_page: 1, last_page: 1, total: 2 } } });
    }
    if (call.url === '/users' && call.method === 'POST') return onCreate(call);
    const body = call.body as { entity: string; data?: Record<string, unknown> };
    let rows = ROWS[body.entity] ?? [];
    for (const [k, v] of Object.entries(body.data ?? {})) rows = rows.filter((r) => v === null || String(r[k]) === String(v));
    return json(200, { data: { data: rows, current_page: 1, per_page: 50, from: 1, to: rows.length, has_more: false }, attributes: [] });
  });
}

/** How long the tests wait for what the user sees (the machine may be busy). */
const WAIT = { timeout: 5000 };

/** The visible input of a field. */
function input(name: string): HTMLInputElement {
  const found = document.querySelector<HTMLInputElement>(`input[data-field="${name}"]:not([type="hidden"]), [data-field="${name}"] input:not([type="hidden"])`);
  if (!found) throw new Error(`no input for ${name}`);
  return found;
}

async function pick(user: ReturnType<typeof userEvent.setup>, name: string, option: string) {
  await user.click(input(name));
  await user.click(await screen.findByRole('option', { name: option }, WAIT));
}

afterEach(() => vi.unstubAllGlobals());

/** The whole form renders some forty Mantine inputs: generous time on a busy machine. */
const SLOW = { timeout: 45_000 };

describe('the user editor', SLOW, () => {
  it('shows the fields of the chosen user type and offers its roles', async () => {
    const server = serve();
    const user = userEvent.setup({ delay: null });
    renderUi(<UserEditor def={USER} mode="create" />);

    await screen.findByRole('button', { name: 'Create' }, WAIT);
    expect(screen.queryByRole('checkbox', { name: 'Director' })).toBeNull();
    expect(document.querySelector('[data-field="user_locked"]')).toBeNull();

    await pick(user, 'usertype_id', 'INTERN');
    expect(await screen.findByText('Functions', {}, WAIT)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Director' })).toBeNull();

    await pick(user, 'usertype_id', 'EXTERN');
    expect(await screen.findByRole('checkbox', { name: 'Director' }, WAIT)).toBeInTheDocument();
    expect(screen.queryByText('Functions')).toBeNull();
    await user.click(input('role_id'));
    expect(await screen.findByRole('option', { name: 'Lead' }, WAIT)).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Administratoren' })).toBeNull();
    expect(server.calls.some((c) => (c.body as { entity?: string; data?: { role_external?: number } })?.data?.role_external === 1)).toBe(true);
  });

  it('derives the abbreviation and generates and copies a password', async () => {
    serve();
    const user = userEvent.setup({ delay: null });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderUi(<UserEditor def={USER} mode="create" />);
    await screen.findByRole('button', { name: 'Create' }, WAIT);
    await user.type(input('user_firstname'), 'clara');
    await user.type(input('user_lastname'), 'Kunde');
    expect(document.querySelector('[data-field="user_abbreviation"]')).toHaveTextContent('CK');

    await user.click(screen.getByRole('button', { name: 'Generate a password and copy it' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('Gen3rated-Pass!'));
    expect(await screen.findByText('Password copied', {}, WAIT)).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveValue('Gen3rated-Pass!');
  });

  it('sends only the fields that apply and puts the server 422 errors on their fields', async () => {
    let sent: Record<string, unknown> = {};
    serve((call) => {
      sent = call.body as Record<string, unknown>;
      return json(422, {
        detail: [
          { loc: ['body', 'user_email'], msg: 'A user with this email address already exists.', type: 'conflict' },
          { loc: ['body', 'team_id'], msg: 'No teams are available for the company you selected', type: 'value_error' },
        ],
      });
    });
    const user = userEvent.setup({ delay: null });
    renderUi(<UserEditor def={USER} mode="create" />);
    await screen.findByRole('button', { name: 'Create' }, WAIT);
    await pick(user, 'usertype_id', 'EXTERN');
    await user.type(input('user_firstname'), 'Clara');
    await user.type(input('user_lastname'), 'Kunde');
    await user.type(input('user_email'), 'taken@demo.test');
    await pick(user, 'role_id', 'Lead');
    await pick(user, 'firmengroup_type', 'Company');
    await pick(user, 'customergroup_id', 'Nordhandel Gruppe');
    await pick(user, 'company_id', 'Nordhandel Outlet GmbH');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('A user with this email address already exists.', {}, WAIT)).toBeInTheDocument();
    expect(screen.getByText('No teams are available for the company you selected')).toBeInTheDocument();
    expect(sent).toMatchObject({
      usertype_id: 2,
      user_firstname: 'Clara',
      user_email: 'taken@demo.test',
      role_id: 5,
      firmengroup_type: 1,
      customergroup_id: 1,
      company_id: 2,
      user_is_director: 0,
      team_id: [],
    });
    for (const absent of ['user_functions', 'function_id', 'partnergroup_id', 'partnercompany_id', 'user_locked', 'user_password', 'user_abbreviation']) {
      expect(sent, absent).not.toHaveProperty(absent);
    }
  });

  it('offers external users only customer teams of their company', async () => {
    serve();
    const user = userEvent.setup({ delay: null });
    renderUi(<UserEditor def={USER} mode="update" row={{ user_id: 9, usertype_id: 2, firmengroup_type: 1, customergroup_id: 1, company_id: 2, team_id: [] }} />);
    await user.click(input('team_id'));
    expect(await screen.findByRole('option', { name: 'MVM extern' }, WAIT)).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'MVM' })).toBeNull();
  });
});

describe('a company without teams', SLOW, () => {
  it('says that no teams are available for it', async () => {
    serve();
    renderUi(<UserEditor def={USER} mode="update" row={{ user_id: 9, usertype_id: 2, firmengroup_type: 1, customergroup_id: 1, company_id: 3, team_id: [] }} />);
    expect(await screen.findByText('No teams are available for the company you selected', {}, WAIT)).toBeInTheDocument();
  });
});
