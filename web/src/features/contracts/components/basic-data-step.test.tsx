import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeDefinition } from '../../../test/fake-tables';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import type { Contract } from '../api/get-contract';
import { BasicDataStep } from './basic-data-step';

afterEach(() => vi.unstubAllGlobals());

const def = fakeDefinition('contract');
const contract: Contract = { contract_id: 5, row_version: 2, contract_name: 'Lease Mannheim' };

describe('BasicDataStep', () => {
  it('on a stale save (409) offers to reload the stored contract, which replaces the input', async () => {
    const server = mockFetch((call) =>
      call.method === 'PUT'
        ? json(409, { detail: 'changed meanwhile' })
        : json(200, { data: { ...contract, row_version: 3, contract_name: 'Lease Mannheim (theirs)' } }),
    );
    const user = userEvent.setup();
    const onSaved = vi.fn();
    renderUi(<BasicDataStep def={def} contract={contract} onDirtyChange={() => undefined} onSaved={onSaved} last={false} />);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    // The contract's number shows in the title, not as a field of the form.
    expect(screen.queryByRole('textbox', { name: /^Id/ })).toBeNull();
    await user.clear(name);
    await user.type(name, 'Lease Mannheim (mine)');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'The record was changed' });
    await user.click(within(dialog).getByRole('button', { name: 'Reload the record' }));
    await vi.waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Lease Mannheim (theirs)'));
    expect(server.calls.some((c) => c.method === 'GET' && c.url.endsWith('/contracts/5'))).toBe(true);
    expect(onSaved).not.toHaveBeenCalled();
  }, 30_000);
});
