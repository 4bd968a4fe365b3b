import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { fakeDefinition, fakeTables } from '../../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const company = fakeDefinition('company', {
  relations: [
    { name: 'pos', api: 'company_pos_rel', label: 'Points of sale', kind: 'has_many', target: 'pos', foreign_key: 'company_id' },
    { name: 'tax_rates', api: 'company_tax_rates_rel', label: 'Tax rates', kind: 'has_many', target: 'taxrate', subject: 'company_tax_rates_rel' },
  ],
});
const tables = fakeTables({
  company: { def: company, rows: [{ company_id: 1, company_name: 'Nordhandel Retail GmbH', row_version: 1 }] },
  pos: { def: fakeDefinition('pos'), rows: [] },
  taxrate: { def: fakeDefinition('taxrate'), rows: [] },
});

describe('relation tabs', () => {
  it('shows a tab with its own subject only to who may list that subject, whatever the target rights', async () => {
    const user = makeUser([
      { action: 'read', subject: 'company' },
      { action: 'list', subject: 'pos' },
      { action: 'list', subject: 'taxrate' },
    ]);
    loginAs(user);
    renderApp('/app/table/company/view/1', user, tables);
    expect(await screen.findByRole('tab', { name: 'Points of sale' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Tax rates' })).not.toBeInTheDocument();
  });

  it('shows the governed tab with the right on it', async () => {
    const user = makeUser([
      { action: 'read', subject: 'company' },
      { action: 'list', subject: 'company_tax_rates_rel' },
    ]);
    loginAs(user);
    renderApp('/app/table/company/view/1', user, tables);
    expect(await screen.findByRole('tab', { name: 'Tax rates' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Points of sale' })).not.toBeInTheDocument();
  });
});
