import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { fakeDefinition, fakeTables, textAttr } from '../../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }]);
const SLOW = { timeout: 300_000 };
const WAIT = { timeout: 45_000 };

const invoiceDef = fakeDefinition('invoice', {
  attributes: [
    textAttr('invoice_id', 'Id', { type: 'id', read_only: true, hidden_on_create: true, attribute_datatype_hint: 'number' }),
    textAttr('invoice_number', 'Invoice number', { required: true, rules: [{ rule: 'required' }] }),
    textAttr('invoice_description', 'Description'),
  ],
});

const created = {
  invoice_id: 77, invoice_number: 'NK-NEU-1', row_version: 1, contract_id: null, contract: null, areas: [], positions: [], contradictions: [],
  sums: { amount_total: '0.00', amount_customer: '0.00', positions: 0, claimed: '0.00', accepted: '0.00', inspection_value: '0.00', inspection_realised: '0.00' },
};

function api(answer: () => Response) {
  const tables = fakeTables({
    invoice: { def: invoiceDef, rows: [] },
    contract: { def: fakeDefinition('contract'), rows: [] },
    invoicevaluetype: { def: fakeDefinition('invoicevaluetype'), rows: [{ invoicevaluetype_id: 5, invoicevaluetype_name: 'Heizgradtage' }] },
  });
  return (call: RecordedCall): Response | undefined => {
    if (call.url === '/invoices') return answer();
    if (call.url.startsWith('/invoices/77')) return json(200, created);
    return tables(call);
  };
}

describe('the invoice create page', SLOW, () => {
  it('checks the header, shows a refused value on its row, and opens the new invoice', async () => {
    loginAs(admin);
    let answer = json(422, { detail: [{ loc: ['body', 'value_types', 0, 'value'], msg: 'The value must be a number', type: 'number' }] });
    const { server } = renderApp('/app/table/invoice/create', admin, api(() => answer));
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'New invoice', level: 1 }, { timeout: 60_000 })).toBeInTheDocument();
    for (const section of ['Header', 'Billing period', 'Contract and areas', 'Value types']) {
      expect(screen.getByRole('heading', { name: section, level: 2 })).toBeInTheDocument();
    }
    expect(screen.getByText('Choose a contract to tick its areas.')).toBeInTheDocument();

    // Nothing is sent while the number is missing.
    await user.click(screen.getByRole('button', { name: 'Create invoice' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Invoice number/ })).toHaveAttribute('aria-invalid', 'true'), WAIT);
    expect(server.calls.filter((c) => c.url === '/invoices')).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: /Invoice number/ }), 'NK-NEU-1');
    await user.click(screen.getByRole('button', { name: 'Add value type' }));
    const row = screen.getByTestId('value-type-0');
    await user.click(within(row).getByRole('combobox', { name: 'Value type 1' }));
    await user.click(await screen.findByRole('option', { name: 'Heizgradtage', hidden: true }, WAIT));
    await user.type(within(row).getByRole('textbox', { name: 'Value 1' }), 'viel');
    await user.click(screen.getByRole('button', { name: 'Create invoice' }));
    expect(await within(row).findByText('The value must be a number', {}, WAIT)).toBeInTheDocument();
    const first = server.calls.find((c) => c.url === '/invoices')!;
    expect(first.body).toEqual({ data: expect.objectContaining({ invoice_number: 'NK-NEU-1', area_id: [] }), value_types: [{ invoicevaluetype_id: 5, value: 'viel' }] });

    answer = json(201, { id: 77, data: { invoice_id: 77, invoice_number: 'NK-NEU-1' } });
    const value = within(row).getByRole('textbox', { name: 'Value 1' });
    await user.clear(value);
    await user.type(value, '1,234.5'); // English: thousands comma, decimal point
    await user.click(screen.getByRole('button', { name: 'Create invoice' }));
    expect(await screen.findByRole('heading', { name: /NK-NEU-1/, level: 1 }, { timeout: 60_000 })).toBeInTheDocument();
    await waitFor(() => expect(server.calls.filter((c) => c.url === '/invoices')).toHaveLength(2));
    expect(server.calls.filter((c) => c.url === '/invoices')[1].body).toMatchObject({ value_types: [{ invoicevaluetype_id: 5, value: '1234.5' }] });
  });
});
