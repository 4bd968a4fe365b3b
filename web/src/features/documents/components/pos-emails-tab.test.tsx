import { AbilityProvider } from '@casl/react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAbility } from '../../../lib/ability';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import { PosEmailsTab } from './pos-emails-tab';

const received = {
  email_id: 8,
  row_version: 1,
  email_direction: 'in',
  email_processed: 1,
  email_received_datetime: '2026-11-23 10:00:00',
  email_from: 'info@dach.example',
  email_to: 'inbox@portfolio.test',
  email_cc: null,
  email_subject: 'Angebot Dach',
  email_body: '<p>Unser Angebot anbei.</p>',
  attachments: [{ document_id: 31, document_name: 'Angebot', document_mime_type: 'application/pdf' }],
  pos_id: 3,
};

function server() {
  return mockFetch((call) => {
    if (call.url.startsWith('/pos/emails')) return json(200, { data: [received], links: { pagination: { current_page: 1, last_page: 1, total: 1 } } });
    if (call.url.startsWith('/emails/8')) return json(200, received);
    if (call.url.startsWith('/documents/links/31')) {
      return json(200, { download: '/document/download/31?authorization=x', preview: '/documents/preview/31?authorization=x' });
    }
    return json(200, { data: { data: [] } });
  });
}

function render(rules = [{ action: 'manage', subject: 'all' }]) {
  renderUi(
    <AbilityProvider value={buildAbility(rules as never)}>
      <PosEmailsTab posId={3} />
    </AbilityProvider>,
  );
}

describe('PosEmailsTab', { timeout: 60_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the point of sale's mails and opens one read-only in the mail modal with its attachments as links", async () => {
    const user = userEvent.setup();
    const { calls } = server();
    const open = vi.fn();
    vi.stubGlobal('open', open);
    render();
    await user.click(await screen.findByRole('button', { name: 'Angebot Dach' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email' });
    expect(calls.some((c) => c.url.startsWith('/pos/emails?pos_id=3'))).toBe(true);
    expect(within(dialog).getByTestId('mail-body')).toHaveTextContent('Unser Angebot anbei.');
    // Read-only: no editor, no send button.
    expect(within(dialog).queryByRole('button', { name: 'Send' })).toBeNull();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Angebot' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('/documents/preview/31?authorization=x', '_blank', 'noopener'));
  });

  it('offers a reply from the view: compose mode to the sender with the subject', async () => {
    const user = userEvent.setup();
    server();
    render();
    await user.click(await screen.findByRole('button', { name: 'Angebot Dach' }));
    const view = await screen.findByRole('dialog', { name: 'Email' });
    await user.click(within(view).getByRole('button', { name: 'Reply' }));
    const compose = await screen.findByRole('dialog', { name: 'Write an email' });
    expect(within(compose).getByText('info@dach.example')).toBeInTheDocument();
    expect(within(compose).getByRole('textbox', { name: 'Subject' })).toHaveValue('Re: Angebot Dach');
    expect(within(compose).getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('offers no reply nor compose without the right to send mail', async () => {
    const user = userEvent.setup();
    server();
    render([{ action: 'read', subject: 'email' }]);
    await user.click(await screen.findByRole('button', { name: 'Angebot Dach' }));
    const view = await screen.findByRole('dialog', { name: 'Email' });
    expect(within(view).queryByRole('button', { name: 'Reply' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Write an email' })).toBeNull();
  });
});
