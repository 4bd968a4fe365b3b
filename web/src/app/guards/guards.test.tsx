import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../lib/session';
import { fakeDefinition, fakeTables } from '../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../test/render-app';
import { json } from '../../test/fetch-mock';

const tables = fakeTables({
  ticket: { def: fakeDefinition('ticket'), rows: [{ ticket_id: 12, ticket_name: 'Leaking roof', row_version: 1 }] },
  board: { def: fakeDefinition('board'), rows: [] },
});

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const ticketReader = makeUser([
  { action: 'read', subject: 'menu_tickets' },
  { action: 'list', subject: 'ticket' },
  { action: 'read', subject: 'ticket' },
]);

describe('route guards', () => {
  it('sends the root to /login', async () => {
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: 'Sign in to Portfolio' })).toBeInTheDocument();
  });

  it('sends unknown paths to /error-404', async () => {
    const { router } = renderApp('/nowhere/at/all');
    await waitFor(() => expect(router.state.location.pathname).toBe('/error-404'));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('sends visitors of a guarded page to /login', async () => {
    const { router } = renderApp('/app/table/ticket');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('shows a table list with the list right', async () => {
    loginAs(ticketReader);
    renderApp('/app/table/ticket', ticketReader, tables);
    expect(await screen.findByRole('heading', { name: 'Tickets' })).toBeInTheDocument();
    // jsdom has no layout, so the virtual body shows no rows: count them instead.
    expect(await screen.findByRole('grid', { name: 'Tickets' })).toHaveAttribute('aria-rowcount', '2');
  });

  it('leads the old generic list of recurring payments to the payments list, filters kept', async () => {
    const payer = makeUser([
      { action: 'read', subject: 'menu_contract' },
      { action: 'list', subject: 'recurringpayment' },
    ]);
    loginAs(payer);
    const payments = fakeTables({ recurringpayment: { def: fakeDefinition('recurringpayment'), rows: [] } });
    const { router } = renderApp('/app/table/recurringpayment?sort=recurringpayment_name', payer, payments);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/payments-list'));
    expect(router.state.location.search).toBe('?sort=recurringpayment_name');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payments list' })).toBeInTheDocument();
  });

  it('sends a logged-in user without the right to /not-authorized', async () => {
    loginAs(ticketReader);
    const { router } = renderApp('/app/table/board', ticketReader);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/not-authorized'));
    expect(await screen.findByRole('heading', { name: 'Access not allowed' })).toBeInTheDocument();
    // The app's menu stays.
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
  });

  it("shows an unknown app path's 404 page with the app's menu", async () => {
    loginAs(ticketReader);
    const { router } = renderApp('/app/nowhere', ticketReader);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/error-404'));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
  });

  it('needs read for a view and update for ?edit=true', async () => {
    loginAs(ticketReader);
    const first = renderApp('/app/table/ticket/view/12', ticketReader, tables);
    // The title, then the record's number, a word apart.
    expect(await screen.findByRole('heading', { level: 1, name: 'Leaking roof #12' })).toBeInTheDocument();
    first.unmount();
    const second = renderApp('/app/table/ticket/view/12?edit=true', ticketReader);
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/app/not-authorized'));
  });

  it('keeps a heading on the page of a record that is not there', async () => {
    loginAs(ticketReader);
    renderApp('/app/table/ticket/view/99', ticketReader, tables);
    expect(await screen.findByText('This record does not exist, or you may not see it.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Tickets' })).toBeInTheDocument();
  });

  it('needs create for the create form', async () => {
    loginAs(ticketReader);
    const { router } = renderApp('/app/table/ticket/create', ticketReader);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/not-authorized'));
  });

  it('guards menu screens with their menu subject', async () => {
    loginAs(ticketReader);
    const { router } = renderApp('/app/backoffice', ticketReader);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/not-authorized'));
  });

  it('opens the profile to every logged-in user', async () => {
    const nobody = makeUser([]);
    loginAs(nobody);
    renderApp('/app/user/profile', nobody);
    expect(await screen.findByRole('heading', { name: 'My profile' })).toBeInTheDocument();
  });

  it('sends a logged-in user away from the authentication pages', async () => {
    loginAs(ticketReader);
    const { router } = renderApp('/forgot-password', ticketReader);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
  });

  it('sends FM team members from /app to the kanban of their first board (team id 7)', async () => {
    const fm = makeUser(
      [
        { action: 'list', subject: 'board' },
        { action: 'read', subject: 'board' },
      ],
      { team_id: [7] },
    );
    loginAs(fm);
    const boards = [
      { board_id: 3, board_name: 'Facility Management', board_description: '', columns: [] },
      { board_id: 4, board_name: 'New Business', board_description: '', columns: [] },
    ];
    const { router } = renderApp('/app', fm, (call) => {
      if (call.url === '/tickets/kanban/user') return json(200, { data: boards });
      if (call.url.startsWith('/tickets?')) return json(200, { data: [], links: { pagination: { current_page: 1, last_page: 1, total: 0 } } });
      return tables(call);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/table/board/3/kanban'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Facility Management' })).toBeInTheDocument();
  });

  it('keeps members of the internal FM team on the dashboard', async () => {
    const internalFM = makeUser([{ action: 'list', subject: 'board' }], {
      team_id: [2],
      teams: [{ team_id: 2, team_name: 'FM', team_type: 'intern' }],
    });
    loginAs(internalFM);
    const { router } = renderApp('/app', internalFM);
    expect(await screen.findByRole('heading', { name: /Welcome/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app');
  });

  it('shows the dashboard to others', async () => {
    loginAs(ticketReader);
    renderApp('/app', ticketReader);
    expect(await screen.findByRole('heading', { name: 'Welcome, Tess' })).toBeInTheDocument();
  });

  it('goes to /login once the session is cleared', async () => {
    loginAs(ticketReader);
    const { router } = renderApp('/app', ticketReader);
    await screen.findByRole('heading', { name: 'Welcome, Tess' });
    session.clear('expired');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText('Your session has ended. Please log in again.')).toBeInTheDocument();
  });
});
