import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';
import userDefinition from '../model/user-definition.fixture.json';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const reader = makeUser([
  { action: 'list', subject: 'user' },
  { action: 'read', subject: 'user' },
]);
const admin = makeUser([{ action: 'manage', subject: 'all' }]);

const USERS = [
  { user_id: 9, usertype_id: 2, user_firstname: 'Sara', user_lastname: 'Filiale', user_email: 'store_manager@demo.test', user_locked: 0, company_id__label: 'Nordhandel Outlet GmbH' },
  { user_id: 2, usertype_id: 1, user_firstname: 'Tom', user_lastname: 'Leitner', user_email: 'team_lead@demo.test', user_locked: 1 },
];

/** How long the tests wait for what the user sees (the machine may be busy). */
const WAIT = { timeout: 5000 };

/** The user API of the server: GET /users (with keyword), GET /users/{id}, the administrator actions. */
function usersApi(call: RecordedCall): Response | undefined {
  const url = new URL(call.url, 'http://x');
  if (url.pathname === '/users' && call.method === 'GET') {
    const keyword = (url.searchParams.get('keyword') ?? '').toLowerCase();
    const rows = USERS.filter((u) => !keyword || `${u.user_firstname} ${u.user_lastname}`.toLowerCase().includes(keyword));
    return json(200, { data: rows, links: { pagination: { current_page: 1, last_page: 1, total: rows.length } } });
  }
  const one = /^\/users\/(\d+)$/.exec(url.pathname);
  if (one && call.method === 'GET') {
    const row = USERS.find((u) => String(u.user_id) === one[1]);
    return row ? json(200, { data: { ...row, team_id: [], user_functions: [], partnercompany_id: [], role_id: 7, row_version: 1 } }) : json(404, { detail: 'Not found' });
  }
  const action = /^\/users\/(\d+)\/([a-z-]+)$/.exec(url.pathname);
  if (action && call.method === 'POST') return json(200, { user_id: Number(action[1]), detail: 'The user is locked and signed out.' });
  if (url.pathname === '/api/definitions/user') return json(200, userDefinition);
  if (url.pathname === '/teams') return json(200, { data: [], links: { pagination: { current_page: 1, last_page: 1, total: 0 } } });
  if (call.url.startsWith('/api/?')) {
    const body = call.body as { action: string };
    if (body.action === 'read') return json(404, { detail: 'Not found' });
    return json(200, { data: { data: [], current_page: 1, per_page: 50, from: null, to: null, has_more: false }, attributes: [] });
  }
  return undefined;
}

const keywords = (calls: RecordedCall[]) =>
  calls.filter((c) => c.url.startsWith('/users?')).map((c) => new URL(c.url, 'http://x').searchParams.get('keyword'));

/** The real route tree with lazy pages: generous time on a busy machine. */
const SLOW = { timeout: 45_000 };

describe('the user list', SLOW, () => {
  it('searches GET /users from 2 characters, 500 ms after typing, and offers no creation without the right', async () => {
    loginAs(reader);
    const { server, router } = renderApp('/app/table/user', reader, usersApi);
    // (The grid's virtual rows do not render in jsdom: the count tells what arrived.)
    expect(await screen.findByLabelText('2 rows', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New user' })).toBeNull();
    const user = userEvent.setup();
    const search = screen.getByRole('textbox', { name: 'Search' });
    await user.type(search, 'S');
    await new Promise((r) => setTimeout(r, 700));
    expect(keywords(server.calls).every((k) => k === null)).toBe(true);
    await user.type(search, 'a');
    await waitFor(() => expect(keywords(server.calls)).toContain('Sa'), { timeout: 5000 });
    await waitFor(() => expect(router.state.location.search).toBe('?q=Sa'));
    expect(await screen.findByLabelText('1 row', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('opens the creation modal for an administrator', async () => {
    loginAs(admin);
    const { router } = renderApp('/app/table/user', admin, usersApi);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'New user' }, { timeout: 5000 }));
    expect(await screen.findByRole('dialog', { name: 'New user' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/table/user/create');
  });
});

describe('the user page', SLOW, () => {
  it('shows the administrator actions only to whoever may manage users', async () => {
    loginAs(reader);
    renderApp('/app/table/user/view/9', reader, usersApi);
    expect(await screen.findByRole('heading', { name: 'Sara Filiale' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Administration' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('locks a user only after a confirmation', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/table/user/view/9', admin, usersApi);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Administration' }, { timeout: 5000 }));
    // (jsdom keeps the menu out of the accessibility tree while it fades in: find the items by text.)
    await user.click(await screen.findByText('Lock user', {}, { timeout: 5000 }));
    expect(screen.queryByText('Unlock user')).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: 'Lock user' }, { timeout: 5000 });
    expect(dialog).toHaveTextContent('Lock Sara Filiale?');
    expect(server.calls.some((c) => c.url.endsWith('/lock'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Lock user' }));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/users/9/lock' && c.method === 'POST')).toBe(true));
    expect(await screen.findByText('The user is locked and signed out.', {}, WAIT)).toBeInTheDocument();
  });
});
