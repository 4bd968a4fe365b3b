import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecordSearchAnswer } from '../../features/search/api/search-records';
import type { RawAbilityRule } from '../../lib/session';
import { deferred, json, mockFetch, type RecordedCall } from '../../test/fetch-mock';
import { renderUi } from '../../test/render-ui';
import { MenuSearch } from './menu-search';

/** Shows where the app went, for the assertions. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

const ANSWER: RecordSearchAnswer = {
  q: 'nord',
  groups: [
    {
      entity: 'pos',
      has_more: true,
      hits: [
        { id: 12, label: 'Nordhandel Forum Fürth', detail: 'F-012' },
        { id: 14, label: 'Nordhandel Einkaufspark München', detail: 'F-014' },
      ],
    },
    { entity: 'contract', has_more: false, hits: [{ id: 3, label: 'Mietvertrag Nordhandel Fürth', detail: 'Nordhandel Forum Fürth' }] },
    { entity: 'invoice', has_more: false, hits: [{ id: 9, label: '9 NK-2024-0000009 2025-09-19', detail: 'Nordhandel Retail GmbH' }] },
    { entity: 'ticket', has_more: false, hits: [{ id: 77, label: 'Heizung defekt', detail: 'Nordhandel Forum Fürth', board_id: 2 }] },
  ],
};

/** Answers the record search with `answer` (only the groups the request asks for, as the server does). */
function server(answer: RecordSearchAnswer | ((call: RecordedCall) => Promise<Response>) = ANSWER) {
  return mockFetch((call) => {
    if (!call.url.startsWith('/search/records')) return json(404, { detail: 'not found' });
    if (typeof answer === 'function') return answer(call);
    const asked = new URL(call.url, 'http://x').searchParams.get('entities')?.split(',') ?? [];
    return json(200, { ...answer, groups: answer.groups.filter((g) => asked.includes(g.entity)) });
  });
}

const searches = (calls: RecordedCall[]) => calls.filter((c) => c.url.startsWith('/search/records'));

const rules = (...entities: string[]): RawAbilityRule[] => [
  { action: 'read', subject: 'menu_home' },
  ...entities.map((subject) => ({ action: ['list', 'read'], subject })),
];

async function openAndType(word: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  const input = await screen.findByRole('combobox');
  fireEvent.change(input, { target: { value: word } });
  return input;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the header search finds records', () => {
  it('groups the hits under the entities’ names after a short rest, one request for the word typed', async () => {
    const { calls } = server();
    renderUi(
      <>
        <MenuSearch />
        <Where />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const input = await screen.findByRole('combobox', { name: /Screen name or record/ });
    for (const word of ['N', 'No', 'Nor', 'Nord']) fireEvent.change(input, { target: { value: word } });
    const pos = await screen.findByRole('group', { name: 'Points of sale' });
    expect(within(pos).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Nordhandel Forum FürthF-012',
      'Nordhandel Einkaufspark MünchenF-014',
      'All matches in the listPoints of sale',
    ]);
    for (const name of ['Contracts', 'Invoices', 'Tickets']) expect(screen.getByRole('group', { name })).toBeInTheDocument();
    expect(searches(calls)).toHaveLength(1);
    const url = new URL(searches(calls)[0].url, 'http://x');
    expect(url.searchParams.get('q')).toBe('Nord');
    expect(url.searchParams.get('entities')).toBe('pos,contract,invoice,ticket');
  });

  it('walks the hits with the arrows and opens the chosen one with Enter', async () => {
    server();
    renderUi(
      <>
        <MenuSearch />
        <Where />
      </>,
    );
    const input = await openAndType('Nord');
    await screen.findByRole('option', { name: /^Nordhandel Forum Fürth/ });
    // No screen is called "Nord": the first hit is chosen; down twice reaches "all matches".
    expect(screen.getByRole('option', { name: /^Nordhandel Forum Fürth/ })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { name: /Einkaufspark/ })).toHaveAttribute('aria-selected', 'true');
    expect(input).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: /Einkaufspark/ }).id);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { name: /Mietvertrag/ })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/app/table/pos/view/14'));
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('opens an invoice on the invoice page, a ticket in its board’s drawer, "all matches" on the searched list', async () => {
    server();
    const user = userEvent.setup();
    renderUi(
      <>
        <MenuSearch />
        <Where />
      </>,
    );
    await openAndType('Nord');
    await user.click(await screen.findByRole('option', { name: /NK-2024-0000009/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/app/table/invoice/view/9'));
    await openAndType('Nord');
    await user.click(await screen.findByRole('option', { name: /Heizung defekt/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/app/table/board/2/kanban?ticket=77'));
    await openAndType('Nord');
    await user.click(await screen.findByRole('option', { name: /All matches in the list/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/app/table/pos?q=Nord'));
  });

  it('asks only for the entities the user may list: no invoice group and no request for invoices', async () => {
    const { calls } = server();
    renderUi(
      <>
        <MenuSearch />
        <Where />
      </>,
      rules('pos', 'ticket'),
    );
    await openAndType('Nord');
    await screen.findByRole('group', { name: 'Points of sale' });
    expect(screen.queryByRole('group', { name: 'Invoices' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Contracts' })).toBeNull();
    expect(new URL(searches(calls)[0].url, 'http://x').searchParams.get('entities')).toBe('pos,ticket');
    // Without the right to read boards a ticket opens on its record page.
    fireEvent.click(screen.getByRole('option', { name: /Heizung defekt/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/app/table/ticket/view/77'));
  });

  it('asks nothing when the user may list none of them', async () => {
    const { calls } = server();
    renderUi(<MenuSearch />, rules('company'));
    const input = await openAndType('Nord');
    expect(input).toHaveAccessibleName('Screen name, e.g. invoices');
    await new Promise((r) => setTimeout(r, 400));
    expect(searches(calls)).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent('No screen matches the search.');
  });

  it('says "No records found" when nothing matches, and shows that it is searching meanwhile', async () => {
    const answer = deferred<Response>();
    const { calls } = server(() => answer.promise);
    renderUi(<MenuSearch />);
    const input = await openAndType('x');
    await new Promise((r) => setTimeout(r, 400));
    expect(searches(calls)).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'zzqx' } });
    expect(await screen.findByText('Searching records…')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-busy', 'true');
    answer.resolve(json(200, { q: 'zzqx', groups: [] }));
    expect(await screen.findByText('No records found')).toBeInTheDocument();
    expect(screen.queryByText('Searching records…')).toBeNull();
    expect(screen.queryByRole('option')).toBeNull();
  });

  it('keeps the screens in the results beside the records', async () => {
    server({ q: 'invoices', groups: [{ entity: 'invoice', has_more: false, hits: [{ id: 5, label: '5 INV-invoices 2025-01-01' }] }] });
    renderUi(<MenuSearch />);
    await openAndType('invoices');
    const screens = await screen.findByRole('group', { name: 'Screens' });
    expect(within(screens).getAllByRole('option').length).toBeGreaterThan(0);
    expect(await screen.findByRole('group', { name: 'Invoices' })).toBeInTheDocument();
    // The screens come first: the first option is a screen.
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    expect(within(screens).getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
  });
});
