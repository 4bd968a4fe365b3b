import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeDefinition } from '../../../test/fake-tables';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import type { Contract } from '../api/get-contract';
import { DocumentsStep } from './documents-step';

afterEach(() => vi.unstubAllGlobals());

const documentDef = fakeDefinition('document');
const contractDef = fakeDefinition('contract');
const contract: Contract = { contract_id: 5, row_version: 2 };

function renderStep(onSaved: (c: Contract, go: boolean) => void, onCancel = vi.fn()) {
  const server = mockFetch(() => json(200, { data: { data: [], total: 0 } }));
  renderUi(
    <DocumentsStep
      documentDef={documentDef}
      contractDef={contractDef}
      contract={contract}
      onDirtyChange={() => undefined}
      onSaved={onSaved}
      onCancel={onCancel}
      last
    />,
  );
  return server;
}

describe('DocumentsStep', () => {
  it('finishes with the optional document form left blank, also after a field was typed into and cleared', async () => {
    const onSaved = vi.fn();
    const server = renderStep(onSaved);
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user.type(name, 'Lease');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save and finish' }));

    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledWith(contract, true));
    expect(screen.queryByText('Name is required')).toBeNull();
    expect(server.calls.some((c) => /contracts\/step\/7|uploadfiles/.test(c.url))).toBe(false);
  }, 30_000);

  it('marks what is missing at its field when the form is filled in, and still lets the user cancel', async () => {
    const onSaved = vi.fn();
    const onCancel = vi.fn();
    renderStep(onSaved, onCancel);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Lease');
    await user.click(screen.getByRole('button', { name: 'Save and finish' }));

    expect(await screen.findByText('Choose a PDF file.')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  }, 30_000);
});
