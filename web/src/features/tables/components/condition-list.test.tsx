import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { fakeDefinition, fakeTables, textAttr } from '../../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

// jsdom has no layout: give every element a 600 px tall box, so the grid renders its rows.
const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 600, right: 1000, width: 1000, height: 600, toJSON: () => ({}) };
const sizes = ['offsetHeight', 'offsetWidth', 'clientHeight', 'clientWidth'] as const;
const saved = sizes.map((p) => [p, Object.getOwnPropertyDescriptor(HTMLElement.prototype, p)] as const);
const originalRect = HTMLElement.prototype.getBoundingClientRect;
beforeAll(() => {
  HTMLElement.prototype.getBoundingClientRect = () => rect as DOMRect;
  for (const p of sizes) {
    Object.defineProperty(HTMLElement.prototype, p, { configurable: true, get: () => (p.endsWith('Width') ? 1000 : 600) });
  }
});
afterAll(() => {
  HTMLElement.prototype.getBoundingClientRect = originalRect;
  for (const [p, d] of saved) {
    if (d) Object.defineProperty(HTMLElement.prototype, p, d);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[p];
  }
});

// What the menu and the server ask for (decision 0012).
const lead = makeUser([
  { action: 'read', subject: 'menu_contract' },
  { action: 'list', subject: 'criteria' },
  { action: 'read', subject: 'contract' },
  { action: 'list', subject: 'contract_criteria_rel' },
]);
const withoutTab = makeUser([
  { action: 'read', subject: 'menu_contract' },
  { action: 'list', subject: 'criteria' },
  { action: 'read', subject: 'contract' },
]);

const tables = fakeTables({
  contract_criteria: {
    def: fakeDefinition('contract_criteria', {
      subject: 'criteria',
      access_subject: 'criteria',
      label: ['contract_id', 'criteria_id'],
      limits: { create: false, update: false, delete: false, list: true },
      attributes: [
        textAttr('contract_criteria_id', 'ID', { type: 'id', read_only: true, attribute_datatype_hint: 'number' }),
        textAttr('contract_id', 'Contract', { type: 'id', read_only: true, ref: { table: 'contract', key: 'contract_id', label: ['contract_name'] } }),
        textAttr('contract_pos_name', 'Point of sale', { read_only: true, sortable: false }),
        textAttr('criteria_id', 'Criterion', { type: 'id', read_only: true, ref: { table: 'criteria', key: 'criteria_id', label: ['criteria_name'] } }),
      ],
    }),
    rows: [
      {
        contract_criteria_id: 11,
        contract_id: 7,
        contract_id__label: 'Mietvertrag Lindenhof',
        contract_pos_name: 'Filiale Lindenhof',
        criteria_id: 3,
        criteria_id__label: 'Untervermietung',
      },
    ],
  },
});

describe('the condition list', () => {
  it('lists the contracts’ conditions read-only and opens a row’s contract on its criteria tab', async () => {
    loginAs(lead);
    const { router } = renderApp('/app/condition-list', lead, tables);
    expect(await screen.findByRole('heading', { name: 'Conditions list' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('Untervermietung', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Filiale Lindenhof')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    await userEvent.setup().click(screen.getByText('Mietvertrag Lindenhof'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/table/contract/view/7'), { timeout: 5000 });
    expect(router.state.location.search).toBe('?tab=contract_criteria_rel');
  }, 15_000);

  it('is not shown without the contracts’ criteria tab', async () => {
    loginAs(withoutTab);
    const { router } = renderApp('/app/condition-list', withoutTab, tables);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/not-authorized'), { timeout: 5000 });
  }, 15_000);
});
