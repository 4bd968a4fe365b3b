import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { fakeDefinition, fakeTables } from '../../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }]);
const SLOW = { timeout: 300_000 };
const WAIT = { timeout: 45_000 };

const position = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  invoiceposition_id: id, invoice_id: 38, invoiceposition_name: name, costtype_id: 1, costtype_id__label: 'Hausmeister',
  externalcosttype_id: 1, externalcosttype_id__label: 'Heizung', unit_id: 1, unit_id__label: 'm²', total_units: 1000,
  units_customer: 150, flat_rate: 0, amount_total: 4000, amount_customer: 640, apportionable: 0, row_version: 3, ...extra,
});

const invoice = {
  invoice_id: 38, invoice_number: 'NK-DEMO-2024', row_version: 1, contract_id: 1, contract_id__label: 'Mietvertrag Amiens',
  contract: { contract_id: 1, contract_name: 'Mietvertrag Amiens', pos_id: 1, pos_id__label: 'Nordhandel Gare de Amiens' },
  invoice_billing_period_from: '2024-01-01', invoice_billing_period_to: '2025-03-31',
  areas: [], positions: [position(148, 'Winterdienst'), position(150, 'Grundsteuer', { apportionable: 1 })],
  contradictions: [{ contradiction_id: 1, contradiction_name: 'NK-DEMO-2024', contradiction_sum: 640, row_version: 2, points: [
    { contradictionpoint_id: 9, invoiceposition_id: 148, contradictionpoint_rule: 'not_apportionable', contradictionpoint_title: 'Nicht umlagefähig: Winterdienst', contradictionpoint_claim: 640, hidden: 0 },
  ] }],
  sums: { amount_total: '8000.00', amount_customer: '1280.00', positions: 2, claimed: '640.00', accepted: '0.00', inspection_value: '0.00', inspection_realised: '0.00' },
};

const positionDef = fakeDefinition('invoiceposition', {
  attributes: ['units_customer', 'total_units', 'flat_rate', 'apportionable', 'amount_total', 'amount_customer', 'costtype_id', 'externalcosttype_id', 'invoiceposition_name'].map(
    (a) => ({ attribute: a, attribute_i18n: a === 'units_customer' ? 'Customer units' : a === 'apportionable' ? 'Apportionable' : a, type: 'decimal', rules: [] }),
  ) as never,
});

function api(generator: () => Response) {
  const tables = fakeTables({
    invoice: { def: fakeDefinition('invoice'), rows: [] },
    invoiceposition: { def: positionDef, rows: [] },
    contradictionpackage: { def: fakeDefinition('contradictionpackage'), rows: [] },
  });
  return (call: RecordedCall): Response | undefined => {
    if (call.url.startsWith('/invoices/38')) return json(200, invoice);
    if (call.url === '/contradiction_generators/start') return generator();
    if (call.url === '/contradictionpackages') return json(201, { id: 7, data: {}, contradiction_ids: [1] });
    const body = call.body as { action?: string; field?: string } | undefined;
    if (body?.action === 'update-field' && body.field === 'units_customer') {
      return json(422, { detail: [{ loc: ['body', 'units_customer'], msg: 'The value must be lower than Total units', type: 'lower' }] });
    }
    if (body?.action === 'update-field') return json(200, { data: {} });
    return tables(call);
  };
}

describe('the invoice page', SLOW, () => {
  it('switches a position inline, shows a refused value on its field, and runs the generator', async () => {
    loginAs(admin);
    let generated = json(422, { detail: 'Invoice NK-DEMO-2024 has no contract' });
    const { server } = renderApp('/app/table/invoice/view/38', admin, api(() => generated));
    const user = userEvent.setup();
    // The first render loads the app's lazy chunks: slow on a busy machine.
    expect(await screen.findByRole('heading', { name: 'NK-DEMO-2024 #38', level: 1 }, { timeout: 60_000 })).toBeInTheDocument();
    expect(screen.getByTestId('invoice-sum-total')).toHaveTextContent('8,000.00');
    expect(screen.getByTestId('invoice-sum-customer')).toHaveTextContent('1,280.00');
    const grid = await screen.findByRole('table', { name: 'Positions' }, WAIT);
    // The finding on the position beside it.
    expect(within(screen.getByTestId('position-148')).getByText('Not apportionable')).toBeInTheDocument();

    await user.click(within(grid).getByRole('switch', { name: 'Apportionable: Winterdienst' }));
    expect(await screen.findByText('Value updated', {}, WAIT)).toBeInTheDocument();
    const update = server.calls.find((c) => (c.body as { action?: string })?.action === 'update-field')!;
    expect(update.body).toMatchObject({ entity: 'invoiceposition', id: 148, field: 'apportionable', value: 1, row_version: 3 });

    const units = within(grid).getByRole('textbox', { name: 'Customer units: Grundsteuer' });
    await user.clear(units);
    await user.type(units, '5000{Enter}');
    expect(await within(grid).findByText('The value must be lower than Total units', {}, WAIT)).toBeInTheDocument();
    expect(units).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Run contradiction generator' }));
    expect(await screen.findByText('Generator Error', {}, WAIT)).toBeInTheDocument();
    expect(screen.getByText('Invoice NK-DEMO-2024 has no contract')).toBeInTheDocument();
    generated = json(200, { invoices: 1, changed: [38], contradictions: [1], points_created: 1, points_removed: 0, points_kept: 0 });
    await user.click(screen.getByRole('button', { name: 'Run contradiction generator' }));
    expect(await screen.findByText('Contradictions generated', {}, WAIT)).toBeInTheDocument();
    await waitFor(() => expect(server.calls.filter((c) => c.url === '/contradiction_generators/start')).toHaveLength(2));
    expect(server.calls.find((c) => c.url === '/contradiction_generators/start')!.body).toEqual({ invoice_ids: [38] });
  });

  it('puts a contradiction into a new package of its point of sale', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/table/invoice/view/38', admin, api(() => json(500, {})));
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'NK-DEMO-2024 #38', level: 1 }, { timeout: 60_000 })).toBeInTheDocument();
    await user.click(within(screen.getByTestId('contradiction-1')).getByRole('button', { name: 'Add to a package' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add NK-DEMO-2024 to a package' }, WAIT);
    // The point of sale has no package yet: the new one is named after the contradiction.
    const name = await within(dialog).findByRole('textbox', { name: /Name of the new package/ }, WAIT);
    expect(name).toHaveValue('NK-DEMO-2024');
    await user.click(within(dialog).getByRole('button', { name: 'Add to a package' }));
    expect(await screen.findByText('Added to the package', {}, WAIT)).toBeInTheDocument();
    expect(server.calls.find((c) => c.url === '/contradictionpackages')!.body).toEqual({
      data: { pos_id: 1, contradictionpackage_name: 'NK-DEMO-2024', contradictionpackage_description: null }, contradiction_ids: [1],
    });
  });

  it('offers no package action to a reader', async () => {
    const reader = makeUser([{ action: 'read', subject: 'all' }, { action: 'list', subject: 'all' }]);
    loginAs(reader);
    renderApp('/app/table/invoice/view/38', reader, api(() => json(500, {})));
    expect(await screen.findByRole('heading', { name: 'NK-DEMO-2024 #38', level: 1 }, { timeout: 60_000 })).toBeInTheDocument();
    expect(within(screen.getByTestId('contradiction-1')).queryByRole('button', { name: 'Add to a package' })).not.toBeInTheDocument();
  });
});
