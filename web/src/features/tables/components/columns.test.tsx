import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import de from '../../../../../internal/i18n/locales/de.json';
import { formatCell } from '../../../components/data-table/format';
import { filterKindOf } from '../../../components/data-table/filter-panel';
import { i18n } from '../../../lib/i18n-instance';
import { textAttr } from '../../../test/fake-tables';
import { renderUi } from '../../../test/render-ui';
import { buildColumns, defaultColumns, requestColumns } from './columns';

const ctx = { lang: 'en', yes: 'Yes', no: 'No' };
/** An invoice's areas: a multi-select stored through a relation, served as not sortable. */
const areas = textAttr('area_id', 'Areas', {
  type: 'id',
  attribute_datatype_hint: 'list',
  multiple: true,
  sortable: undefined,
  ref: { table: 'area', key: 'area_id', label: ['area_name'] },
});
const company = textAttr('company_id', 'Company', {
  type: 'id',
  attribute_datatype_hint: 'list',
  ref: { table: 'company', key: 'company_id', label: ['company_name'] },
});
const number = textAttr('invoice_number', 'Number');

describe('multi-select columns', () => {
  it('asks the server for the ids and the labels of a multi-select', () => {
    expect(requestColumns([number, areas, company], ['invoice_number', 'area_id', 'company_id'])).toEqual([
      'invoice_number',
      'area_id',
      'area_id__label',
      'company_id',
      'company_id__label',
    ]);
  });

  it('shows the labels joined, not the ids', () => {
    const row = { area_id: [1, 2], area_id__label: ['Sales floor', 'Storage'] };
    expect(formatCell(areas, row, ctx)).toBe('Sales floor, Storage');
  });

  it('offers no sorting and no filter on a field the server does not sort', () => {
    const [areaColumn, numberColumn] = buildColumns([areas, number], ['area_id', 'invoice_number'], ctx);
    expect(areaColumn.sortable).toBe(false);
    expect(numberColumn.sortable).toBe(true);
    expect(filterKindOf(areas)).toBeNull();
    expect(filterKindOf(company)).toBe('list');
  });
});

describe('inline editing hint', () => {
  it('marks an editable cell with a pencil and the hint, and a read-only one without', async () => {
    const { render } = await import('@testing-library/react');
    const [editable, fixed] = buildColumns([number, company], ['invoice_number', 'company_id'], ctx, {
      inlineEdit: true,
      editHint: 'Double-click or press Enter to edit',
    });
    expect(editable.editable).toBe(true);
    const { container } = render(<>{editable.render?.({ invoice_number: 'A-1' }, 'A-1')}</>);
    expect(container.querySelector('[data-testid="edit-hint"]')).not.toBeNull();
    expect(container.querySelector('[title="Double-click or press Enter to edit"]')).not.toBeNull();
    expect(fixed.render).toBeUndefined();
  });
});

describe('key columns', () => {
  const id = textAttr('pos_id', 'Point of sale', { type: 'id' });
  const name = textAttr('pos_name', 'Name');
  it('shows the label fields first and leaves the numeric id out by default', () => {
    expect(defaultColumns([id, company, name], { primaryKey: 'pos_id', label: ['pos_name'] })).toEqual(['pos_name', 'company_id']);
    expect(defaultColumns([id, company], { primaryKey: 'pos_id', label: [] })).toEqual(['pos_id', 'company_id']);
  });
  it('titles the id column "#", narrow, not with the entity name', () => {
    const [idColumn, nameColumn] = buildColumns([id, name], ['pos_id', 'pos_name'], ctx, { primaryKey: 'pos_id' });
    expect(idColumn.header).toBe('#');
    expect(idColumn.width).toBeLessThan(100);
    expect(nameColumn.header).toBe('Name');
  });
});

describe('spare room', () => {
  it('goes to names and references, not to the id, numbers, dates or a fixed list of choices', () => {
    const id = textAttr('contract_id', 'Contract', { type: 'id' });
    const begin = textAttr('contract_begin_date', 'Start', { type: 'date' });
    const status = textAttr('contract_status', 'Status', { attribute_datatype_hint: 'list', options: [{ value: 1, label: 'Active' }] });
    const sum = textAttr('contract_sum', 'Sum', { type: 'decimal' });
    const columns = buildColumns([id, number, company, begin, status, sum], ['contract_id', 'invoice_number', 'company_id', 'contract_begin_date', 'contract_status', 'contract_sum'], ctx, {
      primaryKey: 'contract_id',
    });
    expect(Object.fromEntries(columns.map((c) => [c.id, c.grow]))).toEqual({
      contract_id: false,
      invoice_number: true,
      company_id: true,
      contract_begin_date: false,
      contract_status: false,
      contract_sum: false,
    });
  });
});

describe('inline number editor', () => {
  it('takes a German amount with the decimal comma and keeps a text it cannot read, with its message', async () => {
    const sum = textAttr('amount', 'Amount', { type: 'decimal', attribute_datatype_hint: 'decimal' });
    const [column] = buildColumns([sum], ['amount'], { ...ctx, lang: 'de' }, { inlineEdit: true });
    const commits: unknown[] = [];
    renderUi(<>{column.editor?.({ row: { amount: 12.5 }, value: 12.5, commit: (v) => commits.push(v), cancel: () => undefined })}</>);
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await act(() => i18n.changeLanguage('de'));
    try {
      const user = userEvent.setup();
      const input = screen.getByRole('textbox', { name: 'Amount' });
      expect(input).toHaveValue('12,5');
      await user.clear(input);
      await user.type(input, '1.234,5x{Enter}');
      expect(commits).toEqual([]);
      expect(input).toHaveValue('1.234,5x');
      expect(screen.getByText('Keine gültige Zahl: bitte wie 1.234,56 eingeben')).toBeInTheDocument();
      await user.type(input, '{Backspace}{Enter}');
      expect(commits).toEqual([1234.5]);
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
