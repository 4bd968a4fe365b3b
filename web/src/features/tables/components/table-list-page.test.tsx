import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { fakeDefinition, fakeTables } from '../../../test/fake-tables';
import { json } from '../../../test/fetch-mock';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const reader = makeUser([
  { action: 'list', subject: 'pos' },
  { action: 'read', subject: 'pos' },
  { action: 'list', subject: 'ticket' },
]);
const creator = makeUser([
  { action: 'list', subject: 'pos' },
  { action: 'create', subject: 'pos' },
  { action: 'remove', subject: 'pos' },
]);

const posRows = [
  { pos_id: 1, pos_name: 'Bergkamm Basel', row_version: 1 },
  { pos_id: 2, pos_name: 'Tiefblau Linz', row_version: 1 },
];
const tables = fakeTables({
  pos: { def: fakeDefinition('pos'), rows: posRows },
  ticket: { def: fakeDefinition('ticket'), rows: [] },
});

const readRichBodies = (calls: { url: string; body: unknown }[]) =>
  calls.filter((c) => c.url.startsWith('/api/?')).map((c) => c.body as { action: string; filter_all?: string });

describe('the list screen', () => {
  it('searches from 2 characters, 500 ms after typing, and keeps the search in the URL', async () => {
    loginAs(reader);
    const { server, router } = renderApp('/app/table/pos', reader, tables);
    expect(await screen.findByRole('heading', { name: 'Points of sale' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByLabelText('2 rows', {}, { timeout: 5000 })).toBeInTheDocument();
    const user = userEvent.setup();
    const search = screen.getByRole('textbox', { name: 'Search' });
    await user.type(search, 'T');
    await new Promise((r) => setTimeout(r, 700));
    expect(readRichBodies(server.calls).some((b) => b.filter_all)).toBe(false);
    expect(router.state.location.search).toBe('');
    await user.type(search, 'i');
    await waitFor(() => expect(router.state.location.search).toBe('?q=Ti'), { timeout: 5000 });
    await waitFor(() => expect(readRichBodies(server.calls).some((b) => b.filter_all === 'Ti')).toBe(true), { timeout: 5000 });
    expect(await screen.findByLabelText('1 row', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('says when nothing matches the filter and resets it', async () => {
    loginAs(reader);
    const { router } = renderApp('/app/table/pos?q=zzz', reader, tables);
    expect(await screen.findByText('No rows match the filter', {}, { timeout: 5000 })).toBeInTheDocument();
    await userEvent.setup().click(screen.getAllByRole('button', { name: 'Reset filters' })[0]);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByLabelText('2 rows', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('says when a table has no rows yet', async () => {
    loginAs(reader);
    renderApp('/app/table/ticket', reader, tables);
    expect(await screen.findByText('No Tickets yet', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('toasts the server detail of a failed list', async () => {
    loginAs(reader);
    renderApp('/app/table/pos', reader, (call) => {
      if (call.url.startsWith('/api/?')) return json(500, { detail: 'The database is busy' });
      return tables(call);
    });
    // A 5xx is retried twice (about 3 s) before it counts.
    expect(await screen.findAllByText('The database is busy', {}, { timeout: 8000 })).not.toHaveLength(0);
  }, 15_000);

  it('falls back to "Unknown error" without a detail', async () => {
    loginAs(reader);
    renderApp('/app/table/pos', reader, (call) => {
      if (call.url.startsWith('/api/?')) return new Response('', { status: 500 });
      return tables(call);
    });
    expect(await screen.findAllByText('Unknown error', {}, { timeout: 8000 })).not.toHaveLength(0);
  }, 15_000);

  it('shows create and row selection only with the rights (and not for tickets)', async () => {
    loginAs(reader);
    const first = renderApp('/app/table/pos', reader, tables);
    await screen.findByLabelText('2 rows', {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Select all rows' })).toBeNull();
    first.unmount();
    session.clear();
    loginAs(creator);
    renderApp('/app/table/pos', creator, tables);
    expect(await screen.findByRole('button', { name: 'Create' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all rows' })).toBeInTheDocument();
  });
});
