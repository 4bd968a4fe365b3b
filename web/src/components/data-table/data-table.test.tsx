import { fireEvent, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Row } from '../../lib/table-definition';
import { renderUi } from '../../test/render-ui';
import { DataTable, type DataTableColumn } from './data-table';
import { headerWidth } from './format';

const ROWS: Row[] = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, name: `Point of sale ${i + 1}`, city: i % 2 ? 'Basel' : 'Zürich' }));
const COLUMNS: DataTableColumn[] = [
  { id: 'id', header: 'Id', text: (r) => String(r.id), width: 80, sortable: true, align: 'right' },
  { id: 'name', header: 'Name', text: (r) => String(r.name), width: 200, sortable: true },
  { id: 'city', header: 'City', text: (r) => String(r.city), width: 120 },
];

// jsdom has no layout: give every element a 600 px tall box.
const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 600, right: 1000, width: 1000, height: 600, toJSON: () => ({}) };
let restore: () => void;
beforeAll(() => {
  const original = HTMLElement.prototype.getBoundingClientRect;
  HTMLElement.prototype.getBoundingClientRect = () => rect as DOMRect;
  const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 1000 });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  restore = () => {
    HTMLElement.prototype.getBoundingClientRect = original;
    if (height) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', height);
  };
});
afterAll(() => restore());

describe('headerWidth', () => {
  it('grows with the title and its sort mark, within a cap', () => {
    expect(headerWidth('Kündigungsdatum', true)).toBeGreaterThan(headerWidth('Notice date', true));
    expect(headerWidth('Date limite de préavis', true)).toBeGreaterThan(headerWidth('Kündigungsdatum', true));
    expect(headerWidth('Status', true)).toBeGreaterThan(headerWidth('Status', false));
    expect(headerWidth('x'.repeat(200), true)).toBe(320);
  });
});

describe('DataTable', () => {
  it('widens a column to its header, never narrows one', async () => {
    const columns: DataTableColumn[] = [
      { id: 'notice', header: 'Date limite de préavis', text: () => '31/05/2024', width: 120, sortable: true },
      { id: 'name', header: 'Nom', text: (r) => String(r.name), width: 300, sortable: true },
    ];
    renderUi(<DataTable rows={ROWS.slice(0, 3)} columns={columns} rowKey={(r) => String(r.id)} label="Deadlines" onSortChange={() => undefined} />);
    const notice = await screen.findByRole('columnheader', { name: /Date limite de préavis/ });
    expect(notice.style.width).toBe(`${headerWidth('Date limite de préavis', true)}px`);
    expect(screen.getByRole('columnheader', { name: /Nom/ }).style.width).toBe('300px');
  });

  it('gives the spare room to the text columns, not to numbers or short columns', async () => {
    renderUi(<DataTable rows={ROWS.slice(0, 3)} columns={COLUMNS} rowKey={(r) => String(r.id)} label="Grow" />);
    const grows = (name: string) => screen.getByRole('columnheader', { name }).style.flexGrow;
    await screen.findByRole('grid', { name: 'Grow' });
    expect(grows('Name')).toBe('200');
    expect(grows('Id')).toBe('0');
    expect(grows('City')).toBe('0');
    const cells = screen.getByText('Point of sale 1').closest('tr')?.querySelectorAll('td');
    expect([...(cells ?? [])].map((td) => td.style.flexGrow)).toEqual(['0', '200', '0']);
  });

  it('renders a window of rows, not 100,000', async () => {
    renderUi(<DataTable rows={ROWS} columns={COLUMNS} rowKey={(r) => String(r.id)} label="Points of sale" height={600} />);
    const grid = await screen.findByRole('grid', { name: 'Points of sale' });
    expect(grid).toHaveAttribute('aria-rowcount', '100001');
    const bodyRows = grid.querySelectorAll('tbody tr');
    expect(bodyRows.length).toBeGreaterThan(5);
    expect(bodyRows.length).toBeLessThan(60);
    expect(screen.getByText('Point of sale 1')).toBeInTheDocument();
    expect(screen.queryByText('Point of sale 50000')).toBeNull();
  });

  it('moves the row focus with the arrow keys and opens with Enter', async () => {
    const onOpen = vi.fn();
    renderUi(<DataTable rows={ROWS.slice(0, 50)} columns={COLUMNS} rowKey={(r) => String(r.id)} label="List" onOpen={onOpen} height={600} />);
    const region = await screen.findByRole('region', { name: 'List' });
    fireEvent.keyDown(region, { key: 'ArrowDown' });
    fireEvent.keyDown(region, { key: 'ArrowDown' });
    fireEvent.keyDown(region, { key: 'ArrowUp' });
    fireEvent.keyDown(region, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(ROWS[1]);
    fireEvent.keyDown(region, { key: 'End' });
    fireEvent.keyDown(region, { key: 'Enter' });
    expect(onOpen).toHaveBeenLastCalledWith(ROWS[49]);
  });

  it('cycles the server sort of a column: ascending, descending, none', async () => {
    const onSort = vi.fn();
    const view = renderUi(
      <DataTable rows={ROWS.slice(0, 3)} columns={COLUMNS} rowKey={(r) => String(r.id)} label="List" sort={null} onSortChange={onSort} />,
    );
    fireEvent.click(await view.findByRole('button', { name: /^Name/ }));
    expect(onSort).toHaveBeenLastCalledWith({ field: 'name', dir: 'ASC' });
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'none');
  });

  it('cuts long texts and keeps the full text on hover', async () => {
    const rows = [{ id: 1, name: 'A ticket with a rather long name', city: 'x' }];
    renderUi(<DataTable rows={rows} columns={COLUMNS} rowKey={(r) => String(r.id)} label="Tickets" truncateAt={20} />);
    const cell = await screen.findByText('A ticket with a rath…');
    expect(cell).toHaveAttribute('title', 'A ticket with a rather long name');
  });

  it('edits a cell in place: Enter edits and saves, Escape cancels', async () => {
    const onCommit = vi.fn(() => Promise.resolve());
    const editable: DataTableColumn[] = COLUMNS.map((c) =>
      c.id === 'name'
        ? {
            ...c,
            editable: true,
            editor: ({ value, commit, cancel }) => (
              <input
                aria-label="edit name"
                defaultValue={String(value)}
                autoFocus
                onKeyDown={(e) => {
                  if (e.key === 'Enter') commit((e.target as HTMLInputElement).value);
                  if (e.key === 'Escape') cancel();
                  e.stopPropagation();
                }}
              />
            ),
          }
        : c,
    );
    renderUi(<DataTable rows={ROWS.slice(0, 5)} columns={editable} rowKey={(r) => String(r.id)} label="Units" onCellCommit={onCommit} height={600} />);
    const region = await screen.findByRole('region', { name: 'Units' });
    fireEvent.keyDown(region, { key: 'ArrowRight' });
    fireEvent.keyDown(region, { key: 'Enter' });
    const input = await screen.findByRole('textbox', { name: 'edit name' });
    fireEvent.change(input, { target: { value: 'Renamed' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onCommit).toHaveBeenCalledWith(ROWS[0], 'name', 'Renamed');
    fireEvent.keyDown(region, { key: 'Enter' });
    fireEvent.keyDown(await screen.findByRole('textbox', { name: 'edit name' }), { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: 'edit name' })).toBeNull();
    expect(onCommit).toHaveBeenCalledTimes(1);
  });
});
