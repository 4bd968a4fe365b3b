import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultColumns, listableAttributes } from '../../features/tables/components/columns';
import { type AttributeDefinition, companionFields, type Row } from '../../lib/table-definition';
import { textAttr } from '../../test/fake-tables';
import { renderUi } from '../../test/render-ui';
import { RecordForm } from './record-form';
import { useRecordForm } from './use-record-form';

/** A ticket as served: its board by reference, and the board's name derived from it (the API's board_name). */
const TICKET: AttributeDefinition[] = [
  textAttr('ticket_id', 'Ticket', { type: 'id', read_only: true, attribute_datatype_hint: 'number' }),
  textAttr('ticket_name', 'Name'),
  textAttr('board_id', 'Board', { type: 'id', attribute_datatype_hint: 'list', ref: { table: 'board', key: 'board_id', label: ['board_name'] } }),
  textAttr('board_name', 'Board', { read_only: true, sortable: false, derived: { fn: 'ref', args: ['board_id'], field: 'board_name' } }),
  // Two steps away: no copy of the reference's label, a value of its own.
  textAttr('country_name', 'Country', { read_only: true, derived: { fn: 'ref', args: ['board_id', 'country_id'], field: 'country_name' } }),
  textAttr('ticket_deadline_status', 'Deadline status', {
    read_only: true,
    derived: { fn: 'deadline_status', args: [] },
    options: [{ value: 'before_deadline', label: 'Before deadline' }],
  }),
];
const ROW: Row = {
  ticket_id: 7,
  ticket_name: 'Leaking roof',
  board_id: 1,
  board_id__label: 'Facility repairs',
  board_name: 'Facility repairs',
  country_name: 'Germany',
  ticket_deadline_status: 'before_deadline',
};

function View() {
  const form = useRecordForm(TICKET, 'view', ROW);
  return <RecordForm form={form} row={ROW} primaryKey="ticket_id" />;
}

describe('one label per field', () => {
  it('finds the derived copies of a reference label, and only those', () => {
    expect([...companionFields(TICKET)]).toEqual(['board_name']);
  });

  it('offers no list column for the copy', () => {
    const listable = listableAttributes(TICKET).map((a) => a.attribute);
    expect(listable).not.toContain('board_name');
    expect(listable).toContain('board_id');
    expect(defaultColumns(TICKET, { primaryKey: 'ticket_id', label: ['ticket_name'] })).toEqual([
      'ticket_name',
      'board_id',
      'country_name',
      'ticket_deadline_status',
    ]);
  });

  it('shows a record with one "Board", no id field, and a computed status by its label', () => {
    renderUi(<View />);
    expect(screen.getAllByText('Board')).toHaveLength(1);
    expect(screen.queryByText('Ticket')).toBeNull();
    expect(screen.getByDisplayValue('Before deadline')).toBeTruthy();
    expect(screen.queryByDisplayValue('before_deadline')).toBeNull();
    expect(screen.getByDisplayValue('Germany')).toBeTruthy();
  });
});
