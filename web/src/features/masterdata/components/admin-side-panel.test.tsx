import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { fakeDefinition, fakeTables } from '../../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';
import { factValue } from './admin-side-panel';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }]);
const lead = makeUser([
  { action: 'list', subject: 'pos' },
  { action: 'read', subject: 'pos' },
]);
const SLOW = { timeout: 45_000 };
const WAIT = { timeout: 10_000 };

const pos = { pos_id: 4, pos_name: 'Filiale Nord', company_id: 1, company_id__label: 'Nordhandel Retail GmbH', pos_branchnumber: 'N-4',
  pos_internal_id: 56, pos_opening_date: '2020-01-01', row_version: 7 };
const history = [
  { trackrecord_timestamp: '2024-03-02T10:00:00Z', trackrecord_type: 'update', trackrecord_changes: '{}', user_id__label: 'Tess Tester' },
  { trackrecord_timestamp: '2023-01-01T09:00:00Z', trackrecord_type: 'create', trackrecord_changes: '{}', user_id__label: 'Anna Admin' },
];

function api(historyStatus = 200) {
  const tables = fakeTables({ pos: { def: fakeDefinition('pos'), rows: [pos] } });
  return (call: RecordedCall): Response | undefined => {
    const body = call.body as { action?: string } | undefined;
    if (call.url.startsWith('/api/?') && body?.action === 'history') {
      return historyStatus === 200 ? json(200, { data: { data: history }, attributes: [] }) : json(historyStatus, { detail: 'Not allowed' });
    }
    return tables(call);
  };
}

describe('a key fact', () => {
  it('shows dates in the interface language, labels for references, a dash for nothing', () => {
    expect(factValue(pos, 'pos_opening_date', 'de')).toBe('01.01.2020');
    expect(factValue(pos, 'company_id', 'de')).toBe('Nordhandel Retail GmbH');
    expect(factValue({ ...pos, pos_branchnumber: '' }, 'pos_branchnumber', 'fr')).toBe('–');
  });
});

describe('the administrator side panel', SLOW, () => {
  it('shows key facts, creation, last change, the row version and a link to the history', async () => {
    loginAs(admin);
    renderApp('/app/table/pos/view/4', admin, api());
    const panel = await screen.findByRole('complementary', { name: 'Record details' }, WAIT);
    await waitFor(() => expect(within(panel).getByTestId('row-version')).toHaveTextContent('7'), WAIT);
    expect(within(panel).getByText('Nordhandel Retail GmbH')).toBeInTheDocument();
    expect(within(panel).getByText('N-4')).toBeInTheDocument();
    expect(within(panel).getByTestId('created')).toHaveTextContent('Anna Admin');
    expect(within(panel).getByTestId('changed')).toHaveTextContent('Tess Tester');
    expect(within(panel).getByRole('link', { name: /Show the history \(2 entries\)/ })).toHaveAttribute('href', '/app/table/pos/view/4?tab=history');
  });

  it('is absent for anyone but an administrator, and when the server refuses the history', async () => {
    loginAs(lead);
    const first = renderApp('/app/table/pos/view/4', lead, api());
    expect(await screen.findByRole('heading', { name: /^Filiale Nord/ }, WAIT)).toBeInTheDocument();
    expect(screen.queryByTestId('admin-side-panel')).toBeNull();
    first.unmount();
    session.clear();
    loginAs(admin);
    const { server } = renderApp('/app/table/pos/view/4', admin, api(403));
    expect(await screen.findByRole('heading', { name: /^Filiale Nord/ }, WAIT)).toBeInTheDocument();
    await waitFor(() => expect(server.calls.some((c) => (c.body as { action?: string })?.action === 'history')).toBe(true), WAIT);
    await waitFor(() => expect(screen.queryByTestId('admin-side-panel')).toBeNull(), WAIT);
  });
});
