import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RefDefinition } from '../../../lib/table-definition';
import { json, mockFetch, type RecordedCall } from '../../../test/fetch-mock';
import { fakeDefinition, textAttr } from '../../../test/fake-tables';
import { renderUi } from '../../../test/render-ui';
import IncomingMailsPage from './incoming-mails-page';

const ref = (table: string, where: RefDefinition['where'] = []): RefDefinition => ({ table, key: `${table}_id`, label: [], where });
const refAttr = (attribute: string, label: string, r: RefDefinition) => textAttr(attribute, label, { attribute_datatype_hint: 'list', type: 'int', ref: r });

const ticketDef = fakeDefinition('ticket', {
  attributes: [
    refAttr('board_id', 'Board', ref('board')),
    refAttr('columnx_id', 'Column', ref('columnx', [{ target: 'board_id', source: 'board_id' }])),
    refAttr('priority_id', 'Priority', ref('priority')),
    refAttr('pos_id', 'Point of sale', ref('pos')),
  ],
});

const OPTIONS: Record<string, { value: number; label: string }[]> = {
  board_id: [{ value: 1, label: 'Facility Management' }],
  columnx_id: [{ value: 1, label: 'Neu' }],
  priority_id: [{ value: 2, label: 'Hoch' }],
  pos_id: [{ value: 3, label: 'Filiale Nord' }],
};

const mail = {
  email_id: 5,
  row_version: 4,
  email_processed: 0,
  email_received_datetime: '2026-11-23 10:00:00',
  email_from: 'info@dach.example',
  email_to: 'inbox@portfolio.test',
  email_cc: null,
  email_subject: 'Wasserschaden im Lager',
  email_body: '<p>Bitte kommen Sie schnell.</p>',
  attachments: [{ document_id: 9, document_name: 'Fotos', document_mime_type: 'application/pdf' }],
  pos_id: 3,
  pos_id__label: 'Filiale Nord',
  contract_id: null,
  ticket_id: null,
};

function server(create: (call: RecordedCall) => Response) {
  return mockFetch((call) => {
    if (call.url.startsWith('/api/definitions/ticket')) return json(200, ticketDef);
    if (call.url.startsWith('/api/definitions/email')) return json(200, fakeDefinition('email'));
    if (call.url.startsWith('/emails/incoming')) {
      return json(200, { data: [mail], links: { pagination: { current_page: 1, last_page: 1, total: 1 } } });
    }
    if (call.url === '/emails/5/ticket') return create(call);
    if (call.url.startsWith('/emails/5')) return json(200, mail);
    const body = call.body as { action?: string; field?: string } | undefined;
    if (body?.action === 'options') return json(200, { data: OPTIONS[body.field ?? ''] ?? [], has_more: false });
    return json(200, { data: { data: [] } });
  });
}

/** Opens the select labelled `label` in `dialog` and picks `option`. */
async function choose(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, label: RegExp, option: string) {
  const input = within(dialog)
    .getAllByLabelText(label)
    .find((el) => el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'hidden') as HTMLElement;
  await user.click(input);
  await user.click(await screen.findByRole('option', { name: option }));
}

async function openCreate(user: ReturnType<typeof userEvent.setup>) {
  renderUi(<IncomingMailsPage />);
  await user.click(await screen.findByText('Wasserschaden im Lager'));
  await user.click(await screen.findByRole('button', { name: 'Create a ticket' }));
  return screen.findByRole('dialog', { name: 'Create a ticket' });
}

describe('IncomingMailsPage: create a ticket from a mail', { timeout: 60_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the board, column and priority chosen with the subject as title and the suggested point of sale', async () => {
    const user = userEvent.setup();
    const { calls } = server(() => json(201, { data: { ticket_id: 77, ticket_name: 'Wasserschaden im Lager' } }));
    const dialog = await openCreate(user);
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue('Wasserschaden im Lager');
    await choose(user, dialog, /^Board/, 'Facility Management');
    await choose(user, dialog, /^Column/, 'Neu');
    await choose(user, dialog, /^Priority/, 'Hoch');
    await user.click(within(dialog).getByRole('button', { name: 'Create ticket' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create a ticket' })).toBeNull());
    const create = calls.find((c) => c.url === '/emails/5/ticket');
    expect(create?.method).toBe('POST');
    expect(create?.body).toEqual({ row_version: 4, board_id: 1, columnx_id: 1, priority_id: 2, pos_id: 3, ticket_name: 'Wasserschaden im Lager' });
    expect(await screen.findByText('Ticket 77 was created from the email.')).toBeInTheDocument();
    // The column's options were asked for with the board chosen.
    const columnOptions = calls.find((c) => (c.body as { field?: string } | undefined)?.field === 'columnx_id');
    expect((columnOptions?.body as { data: Record<string, unknown> }).data).toEqual({ board_id: 1 });
  });

  it("shows the server's refusal on the field it names and sends nothing without the required choices", async () => {
    const user = userEvent.setup();
    const { calls } = server(() =>
      json(422, { detail: [{ loc: ['body', 'board_id'], msg: 'Board is not available.', type: 'not_available' }] }),
    );
    const dialog = await openCreate(user);
    await user.click(within(dialog).getByRole('button', { name: 'Create ticket' }));
    expect(within(dialog).getAllByText('Required')).toHaveLength(3);
    expect(calls.some((c) => c.url === '/emails/5/ticket')).toBe(false);
    await choose(user, dialog, /^Board/, 'Facility Management');
    await choose(user, dialog, /^Column/, 'Neu');
    await choose(user, dialog, /^Priority/, 'Hoch');
    await user.click(within(dialog).getByRole('button', { name: 'Create ticket' }));
    expect(await within(dialog).findByText('Board is not available.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create a ticket' })).toBeInTheDocument();
  });
});
