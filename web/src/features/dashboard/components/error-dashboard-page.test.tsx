import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';
import type { ErrorBoard } from '../api/errors';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }]);
const member = makeUser([{ action: 'read', subject: 'menu_dashboard' }]);

const BOARD: ErrorBoard = {
  jobs: [{ id: 7, name: 'document_sweep', attempts: 5, max_attempts: 5, error: 'disk full', finished_at: '2026-11-20T03:00:02Z' }],
  mails: [
    { id: 3, to: 'a@example.test', subject: 'Deadline digest', created_at: '2026-11-20T06:00:00Z', attempts: 8, given_up: true, error: '550 no such user' },
  ],
  imports: [
    {
      id: 21,
      user_id: 4,
      user_email: 'team_lead@demo.test',
      entity: 'pos',
      file_name: 'shops.xlsx',
      rows: 1200,
      state: 'valid',
      created_at: '2026-11-20T08:00:00Z',
      failed_at: '2026-11-20T08:05:00Z',
      reason: 'The user who uploaded this import is locked or removed.',
      retryable: true,
    },
    {
      id: 22,
      user_id: 4,
      user_email: 'team_lead@demo.test',
      entity: 'contract',
      file_name: 'contracts.csv',
      rows: 3,
      state: 'invalid',
      created_at: '2026-11-20T09:00:00Z',
      failed_at: '2026-11-20T09:05:00Z',
      reason: 'The import could not be committed.',
      retryable: false,
    },
  ],
  responses: [
    {
      id: 11,
      occurred_at: '2026-11-21T10:00:00Z',
      request_id: 'a1b2c3d4e5f60718',
      method: 'GET',
      path: '/contracts/5',
      route: 'GET /contracts/{id}',
      status: 500,
      message: 'contracts: read 5: database is locked',
    },
  ],
};

const SLOW = { timeout: 45_000 };
const WAIT = { timeout: 5000 };
/** The first screen waits for the lazy route on a busy machine. */
const FIRST = { timeout: 30_000 };

function boardApi(board: ErrorBoard) {
  return (call: RecordedCall): Response | undefined => {
    if (call.url === '/backoffice/errors' && call.method === 'GET') return json(200, board);
    if (/^\/backoffice\/errors\/[a-z]+\/\d+\/(retry|dismiss)$/.test(call.url) && call.method === 'POST') return new Response(null, { status: 204 });
    return undefined;
  };
}

describe('the error dashboard', SLOW, () => {
  it('lists failed runs, undelivered mail and failed answers with their request id', async () => {
    loginAs(admin);
    renderApp('/app/dashboard/errors', admin, boardApi(BOARD));
    expect(await screen.findByRole('heading', { level: 1, name: 'Error dashboard' }, FIRST)).toBeInTheDocument();
    expect(screen.getByTestId('error-job')).toHaveTextContent('Document file sweep');
    expect(screen.getByTestId('error-job')).toHaveTextContent('disk full');
    expect(screen.getByTestId('error-mail')).toHaveTextContent('Given up');
    expect(screen.getByTestId('error-response')).toHaveTextContent('a1b2c3d4e5f60718');
    expect(screen.getByTestId('error-response')).toHaveTextContent('GET /contracts/5');
    const [pos, contracts] = screen.getAllByTestId('error-import');
    expect(pos).toHaveTextContent('shops.xlsx');
    expect(pos).toHaveTextContent('point of sale · 1200 rows');
    expect(pos).toHaveTextContent('team_lead@demo.test');
    expect(pos).toHaveTextContent('locked or removed');
    expect(within(contracts).queryByRole('button', { name: /^Commit again/ })).toBeNull();
    expect(contracts).toHaveTextContent('Validated anew with errors');
  });

  it('commits a failed import again and dismisses one', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/dashboard/errors', admin, boardApi(BOARD));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Commit again: shops.xlsx' }, FIRST));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/backoffice/errors/imports/21/retry' && c.method === 'POST')).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Dismiss: contracts.csv' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss this entry?' }, WAIT);
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/backoffice/errors/imports/22/dismiss' && c.method === 'POST')).toBe(true));
  });

  it('retries at once and dismisses only after a confirmation', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/dashboard/errors', admin, boardApi(BOARD));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send again: Deadline digest' }, FIRST));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/backoffice/errors/mails/3/retry' && c.method === 'POST')).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Dismiss: a1b2c3d4e5f60718' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss this entry?' }, WAIT);
    expect(server.calls.some((c) => c.url.endsWith('/dismiss'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/backoffice/errors/responses/11/dismiss' && c.method === 'POST')).toBe(true));
  });

  it('says so when nothing failed', async () => {
    loginAs(admin);
    renderApp('/app/dashboard/errors', admin, boardApi({ jobs: [], mails: [], imports: [], responses: [] }));
    expect(await screen.findByText('No job run failed.', {}, FIRST)).toBeInTheDocument();
    expect(screen.getByText('No import failed.')).toBeInTheDocument();
    expect(screen.getByText('All mail was delivered.')).toBeInTheDocument();
    expect(screen.getByText('The server answered every request.')).toBeInTheDocument();
  });

  it('is not open to a user without the error dashboard', async () => {
    loginAs(member);
    const { server } = renderApp('/app/dashboard/errors', member, boardApi(BOARD));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'Error dashboard' })).toBeNull(), WAIT);
    expect(await screen.findByText(/not allowed|no access|permission/i, {}, FIRST)).toBeInTheDocument();
    expect(server.calls.some((c) => c.url === '/backoffice/errors')).toBe(false);
  });
});
