import { describe, expect, it } from 'vitest';
import { decodeListState } from '../../../lib/list-state';
import { deadlineLink, homeLinks, ticketLink, ticketStatusLink, ticketsCreatedLink } from './links';

/** The list state a link opens, as the list screen reads it. */
function stateOf(url: string, table: string) {
  const [path, query = ''] = url.split('?');
  return { path, state: decodeListState(new URLSearchParams(query), table) };
}

describe('figure links', () => {
  it('open the deadline list on the active deadlines of a window', () => {
    const { path, state } = stateOf(deadlineLink(['2026-11-23', '2026-12-23']), 'contractaction');
    expect(path).toBe('/app/deadline-list');
    expect(state.filters).toEqual([
      { field: 'contractaction_status', op: 'eq', value: 'active' },
      { field: 'contractaction_notice_date', op: 'between', value: ['2026-11-23', '2026-12-23'] },
    ]);
  });

  it('open the ticket list on the open tickets of a status, board or column', () => {
    const { path, state } = stateOf(ticketStatusLink('over_due_red'), 'ticket');
    expect(path).toBe('/app/table/ticket');
    expect(state.filters).toEqual([
      { field: 'ticket_closed', op: 'eq', value: 0 },
      { field: 'ticket_deadline_status', op: 'eq', value: 'over_due_red' },
    ]);
    const column = stateOf(
      ticketLink([
        { field: 'board_id', op: 'eq', value: 2 },
        { field: 'columnx_id', op: 'eq', value: 7 },
      ]),
      'ticket',
    );
    expect(column.state.filters).toHaveLength(3);
    expect(column.state.filters[2]).toEqual({ field: 'columnx_id', op: 'eq', value: 7 });
  });

  it('open the tickets created in a week', () => {
    const { state } = stateOf(ticketsCreatedLink('2026-11-16', '2026-11-22'), 'ticket');
    expect(state.filters).toEqual([
      { field: 'ticket_creation_time', op: 'between', value: ['2026-11-16 00:00:00', '2026-11-22 23:59:59'] },
    ]);
  });

  it('sort the contracts by rental space and filter the realised results', () => {
    const space = stateOf(homeLinks.rentalSpace(), 'contract');
    expect(space.path).toBe('/app/table/contract');
    expect(space.state.sort).toEqual({ field: 'contract_rentalspace_sum', dir: 'DESC' });
    const realised = stateOf(homeLinks.realised(), 'inspectionresult');
    expect(realised.state.filters).toEqual([{ field: 'inspectionresult_realised', op: 'eq', value: 1 }]);
    expect(homeLinks.pos()).toBe('/app/table/pos');
  });
});
