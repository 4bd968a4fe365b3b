import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeDefinition } from '../../../test/fake-tables';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import type { Contract } from '../api/get-contract';
import { PaymentsStep } from './payments-step';

afterEach(() => vi.unstubAllGlobals());

const def = fakeDefinition('recurringpayment');
const contract: Contract = {
  contract_id: 5,
  row_version: 2,
  recurringpayments: [{ recurringpayment_id: 7, row_version: 3, recurringpayment_name: 'Rent', contract_id: 5 }],
};

describe('PaymentsStep', () => {
  it('saves only the new row and shows its server error on that row, not on the stored one', async () => {
    const server = mockFetch(() =>
      json(422, { detail: [{ loc: ['recurringpayments', 0, 'recurringpayment_name'], msg: 'Name is already used', type: 'unique' }] }),
    );
    const user = userEvent.setup();
    const onSaved = vi.fn();
    renderUi(<PaymentsStep def={def} contract={contract} onDirtyChange={() => undefined} onSaved={onSaved} last={false} />);
    await user.click(await screen.findByRole('button', { name: 'Add payment' }));
    const added = screen.getByRole('region', { name: /^Payment 2/ });
    await user.type(within(added).getByRole('textbox', { name: /^Name/ }), 'Service charge');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await within(added).findByText('Name is already used')).toBeInTheDocument();
    const stored = screen.getByRole('region', { name: /^Payment 1/ });
    expect(within(stored).queryByText('Name is already used')).toBeNull();
    const call = server.calls.find((c) => c.url.includes('/contracts/step/2'));
    expect(call?.method).toBe('PUT');
    expect(call?.body).toEqual({ contract_id: 5, recurringpayments: [{ recurringpayment_name: 'Service charge' }], remove_ids: [] });
    expect(onSaved).not.toHaveBeenCalled();
  }, 30_000);

  it('sends a removed stored row as remove_ids and reports the saved contract', async () => {
    const server = mockFetch(() => json(200, { data: { ...contract, recurringpayments: [] } }));
    const user = userEvent.setup();
    const onSaved = vi.fn();
    renderUi(<PaymentsStep def={def} contract={contract} onDirtyChange={() => undefined} onSaved={onSaved} last={false} />);
    await user.click(await screen.findByRole('button', { name: 'Remove payment 1' }));
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ contract_id: 5 }), true));
    const call = server.calls.find((c) => c.url.includes('/contracts/step/2'));
    expect(call?.body).toEqual({ contract_id: 5, recurringpayments: [], remove_ids: [7] });
  }, 30_000);
});
