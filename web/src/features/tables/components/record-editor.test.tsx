import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock';
import { fakeDefinition } from '../../../test/fake-tables';
import { renderUi } from '../../../test/render-ui';
import { acceptPopupMessage, isPopupCreatedMessage } from '../popup-message';
import { RecordEditor } from './record-editor';

afterEach(() => vi.unstubAllGlobals());

const def = fakeDefinition('currency');
const row = { currency_id: 3, currency_name: 'Euro', row_version: 4 };

describe('RecordEditor', () => {
  it('sends an update with the row version and shows the server 422 on its field', async () => {
    const server = mockFetch(() =>
      json(422, { detail: [{ loc: ['body', 'currency_name'], msg: 'Name is already used by another record', type: 'unique' }] }),
    );
    const user = userEvent.setup();
    renderUi(<RecordEditor table="currency" def={def} mode="update" id="3" row={row} />);
    const input = await screen.findByRole('textbox', { name: /^Name/ });
    await user.clear(input);
    await user.type(input, 'Franc');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is already used by another record')).toBeInTheDocument();
    const call = server.calls.find((c) => c.url.startsWith('/api/?'));
    expect(call?.body).toMatchObject({ action: 'update', entity: 'currency', id: 3, row_version: 4, data: { currency_name: 'Franc' } });
    // Typing again clears the server's message.
    await user.type(input, 's');
    expect(screen.queryByText('Name is already used by another record')).toBeNull();
  });

  it('tells the user about a stale version (409) and reloads the record on request', async () => {
    mockFetch(() => json(409, { code: 'stale', detail: 'Someone else changed this record meanwhile.' }));
    const user = userEvent.setup();
    const onReload = vi.fn(() => Promise.resolve({ ...row, currency_name: 'Euro (new)', row_version: 5 }));
    renderUi(<RecordEditor table="currency" def={def} mode="update" id="3" row={row} onReload={onReload} />);
    const input = await screen.findByRole('textbox', { name: /^Name/ });
    await user.type(input, ' zone');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The record was changed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reload the record' }));
    await waitFor(() => expect(onReload).toHaveBeenCalled());
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Euro (new)'));
  });

  it('does not send a record that fails the client rules', async () => {
    const server = mockFetch(() => json(201, { data: {} }));
    const user = userEvent.setup();
    renderUi(<RecordEditor table="currency" def={def} mode="create" />);
    await user.click(await screen.findByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please correct the marked fields.');
    expect(server.calls.filter((c) => c.url.startsWith('/api/?'))).toHaveLength(0);
  });
});

describe('popup messages', () => {
  const message = { type: 'portfolio:popup-created', table: 'company', list: 'company_id', id: 7, label: 'Neu GmbH' };

  it('accepts only the typed payload from the same origin', () => {
    expect(isPopupCreatedMessage(message)).toBe(true);
    expect(isPopupCreatedMessage({ ...message, id: '7' })).toBe(false);
    const own = new MessageEvent('message', { data: message, origin: window.location.origin });
    expect(acceptPopupMessage(own)).toEqual(message);
    const foreign = new MessageEvent('message', { data: message, origin: 'https://evil.example' });
    expect(acceptPopupMessage(foreign)).toBeNull();
  });
});
