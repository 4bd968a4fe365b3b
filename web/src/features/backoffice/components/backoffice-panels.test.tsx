import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';
import type { OutboxMessage, TranslationRow } from '../api/backoffice';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }]);
const SLOW = { timeout: 60_000 };
const WAIT = { timeout: 5000 };
const FIRST = { timeout: 30_000 };

const MAILS: OutboxMessage[] = [
  {
    id: 9,
    to: 'bounce@example.test',
    cc: 'lead@demo.test',
    subject: 'Deadline digest',
    created_at: '2026-11-20T06:00:00Z',
    sent_at: null,
    attempts: 8,
    max_attempts: 8,
    next_attempt_at: null,
    error: '550 no such user',
    state: 'given_up',
  },
  {
    id: 8,
    to: 'admin@demo.test',
    cc: '',
    subject: 'Password reset',
    created_at: '2026-11-20T05:00:00Z',
    sent_at: '2026-11-20T05:00:01Z',
    attempts: 1,
    max_attempts: 8,
    next_attempt_at: null,
    error: '',
    state: 'sent',
  },
];

const TEXT: TranslationRow = {
  table: 'translation',
  id: 42,
  key: 'errors.title',
  lang: 'de',
  text: 'Störungen',
  shipped: 'Fehler-Dashboard',
  edited: true,
  row_version: 3,
};

function backofficeApi(generation = { n: 7 }) {
  return (call: RecordedCall): Response | undefined => {
    if (call.url === '/backoffice/jobs') return json(200, { jobs: [] });
    if (call.url.startsWith('/backoffice/outbox')) {
      const state = new URL(call.url, 'http://x').searchParams.get('state');
      return json(200, { data: MAILS.filter((m) => !state || m.state === state) });
    }
    if (call.url === '/backoffice/errors/mails/9/retry' && call.method === 'POST') return new Response(null, { status: 204 });
    if (call.url.startsWith('/backoffice/translations') && call.method === 'GET') return json(200, { data: [TEXT], total: 1 });
    if (call.url === '/backoffice/translations/translation/42' && call.method === 'PUT') return json(200, { ...TEXT, text: 'Neu', row_version: 4 });
    if (call.url === '/backoffice/translations/translation/42/revert' && call.method === 'POST')
      return json(200, { ...TEXT, text: TEXT.shipped, edited: false, row_version: 4 });
    if (call.url === '/backoffice/rights-generation') return json(200, { generation: generation.n });
    if (call.url === '/backoffice/rights-generation/bump' && call.method === 'POST') {
      generation.n += 1;
      return json(200, { generation: generation.n });
    }
    return undefined;
  };
}

describe('the Back Office tabs', SLOW, () => {
  it('shows the outbox with state, recipients and attempts, filters it and sends a given-up mail again', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/backoffice', admin, backofficeApi());
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Mail outbox' }, FIRST));
    const table = await screen.findByRole('table', { name: 'Mail outbox' }, WAIT);
    const [digest, reset] = within(table).getAllByTestId('outbox-row');
    expect(digest).toHaveTextContent('bounce@example.test');
    expect(digest).toHaveTextContent('Cc: lead@demo.test');
    expect(digest).toHaveTextContent('Given up');
    expect(digest).toHaveTextContent('8 / 8');
    expect(digest).toHaveTextContent('550 no such user');
    expect(reset).toHaveTextContent('Sent');
    expect(within(reset).queryByRole('button', { name: /^Send again/ })).toBeNull();
    await user.click(within(digest).getByRole('button', { name: 'Send again: Deadline digest' }));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/backoffice/errors/mails/9/retry' && c.method === 'POST')).toBe(true));
    await user.click(screen.getByRole('radio', { name: 'Sent' }));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/backoffice/outbox?state=sent')).toBe(true));
    await waitFor(() => expect(screen.getAllByTestId('outbox-row')).toHaveLength(1));
  });

  it('edits a translation and restores the shipped text after a confirmation', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/backoffice', admin, backofficeApi());
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Translations' }, FIRST));
    const row = await screen.findByTestId('translation-row', {}, WAIT);
    expect(row).toHaveTextContent('errors.title');
    expect(row).toHaveTextContent('Störungen');
    expect(row).toHaveTextContent('Fehler-Dashboard');
    expect(row).toHaveTextContent('Kept');
    await user.click(within(row).getByRole('button', { name: 'Edit: errors.title (de)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the text' }, WAIT);
    const box = within(dialog).getByRole('textbox', { name: 'Text' });
    await user.clear(box);
    await user.type(box, 'Neu');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const put = server.calls.find((c) => c.url === '/backoffice/translations/translation/42' && c.method === 'PUT');
      expect(put?.body).toEqual({ text: 'Neu', row_version: 3 });
    });
    await user.click(within(row).getByRole('button', { name: 'Restore the shipped text: errors.title (de)' }));
    const confirm = await screen.findByRole('dialog', { name: 'Restore the shipped text?' }, WAIT);
    expect(server.calls.some((c) => c.url.endsWith('/revert'))).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Restore the shipped text' }));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/backoffice/translations/translation/42/revert' && c.method === 'POST')).toBe(true));
  });

  it('shows the rights generation and moves it on after a confirmation', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/backoffice', admin, backofficeApi());
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Rights generation' }, FIRST));
    expect(await screen.findByTestId('rights-generation', {}, WAIT)).toHaveTextContent('7');
    await user.click(screen.getByRole('button', { name: 'Recompute all rights' }));
    const dialog = await screen.findByRole('dialog', { name: 'Recompute all rights?' }, WAIT);
    expect(server.calls.some((c) => c.url.endsWith('/bump'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Recompute all rights' }));
    await waitFor(() => expect(screen.getByTestId('rights-generation')).toHaveTextContent('8'));
  });
});
