import { describe, expect, it } from 'vitest';
import {
  type BoardColumn,
  deadlineColor,
  filterChoices,
  groupTickets,
  matchesFilters,
  moveTicket,
  neighbourColumn,
  NO_FILTERS,
  orderedColumns,
  type Priority,
  removeTicket,
  restoreTicket,
  type Ticket,
  upsertTicket,
} from './board';

const col = (id: number, rank: number): BoardColumn => ({
  columnx_id: id,
  columnx_name: `C${id}`,
  rank_order: rank,
  is_qualitygate: false,
  has_stamp: false,
  team_id: 0,
});

const priorities: Priority[] = [
  { priority_id: 1, priority_name: 'Low', priority_order: 1, priority_smiley: '🙂', priority_color: '#40C057' },
  { priority_id: 4, priority_name: 'Urgent', priority_order: 4, priority_smiley: '😱', priority_color: '#FA5252' },
];

function ticket(id: number, over: Partial<Ticket> = {}): Ticket {
  return {
    ticket_id: id,
    ticket_name: `T${id}`,
    pos_id: 1,
    pos_id__label: 'Amiens',
    priority_id: 1,
    board_id: 1,
    columnx_id: 10,
    user_id: null,
    team_id: null,
    ticket_yellow_deadline: '2026-12-01T00:00:00Z',
    ticket_red_deadline: '2026-12-02T00:00:00Z',
    ticket_progress: 10,
    ticket_closed: 0,
    ticket_deadline_status: 'before_deadline',
    ticket_created_by: 1,
    ticket_creation_time: '2026-11-01T00:00:00Z',
    row_version: 1,
    ...over,
  };
}

describe('columns and card order', () => {
  it('orders columns by rank, then id', () => {
    expect(orderedColumns([col(3, 2), col(1, 1), col(2, 2)]).map((c) => c.columnx_id)).toEqual([1, 2, 3]);
  });

  it('groups tickets into their columns, most urgent first, and leaves out unknown columns', () => {
    const ts = [
      ticket(1),
      ticket(2, { ticket_deadline_status: 'over_due_red' }),
      ticket(3, { priority_id: 4 }),
      ticket(4, { ticket_deadline_status: 'critical_yellow' }),
      ticket(5, { ticket_red_deadline: '2026-11-30T00:00:00Z' }),
      ticket(6, { columnx_id: 20 }),
      ticket(7, { columnx_id: 99 }),
    ];
    const g = groupTickets(ts, [col(10, 1), col(20, 2)], priorities);
    // red, yellow, then green by priority (urgent first), then the earlier red deadline, then the number.
    expect(g.get(10)?.map((t) => t.ticket_id)).toEqual([2, 4, 3, 5, 1]);
    expect(g.get(20)?.map((t) => t.ticket_id)).toEqual([6]);
    expect([...g.keys()]).toEqual([10, 20]);
  });

  it('names the badge colours of the deadline status', () => {
    expect(deadlineColor('before_deadline')).toBe('green');
    expect(deadlineColor('critical_yellow')).toBe('yellow');
    expect(deadlineColor('over_due_red')).toBe('red');
    expect(deadlineColor(null)).toBe('gray');
  });

  it('finds the neighbour column of a keyboard move, none past the edge', () => {
    const cols = [col(30, 3), col(10, 1), col(20, 2)];
    expect(neighbourColumn(cols, 10, 1)).toBe(20);
    expect(neighbourColumn(cols, 20, -1)).toBe(10);
    expect(neighbourColumn(cols, 30, 1)).toBeNull();
    expect(neighbourColumn(cols, 10, -1)).toBeNull();
    expect(neighbourColumn(cols, 99, 1)).toBeNull();
  });
});

describe('filters', () => {
  const mine = ticket(1, { user_id: 7 });
  const created = ticket(2, { ticket_created_by: 7 });
  const other = ticket(3, { user_id: 8, ticket_created_by: 8 });

  it('mine: assigned to or created by the caller', () => {
    const f = { ...NO_FILTERS, mine: true };
    expect([mine, created, other].filter((t) => matchesFilters(t, f, 7)).map((t) => t.ticket_id)).toEqual([1, 2]);
    expect(matchesFilters(mine, f, null)).toBe(false);
  });

  it('late: past the red deadline only', () => {
    const f = { ...NO_FILTERS, late: true };
    expect(matchesFilters(ticket(1, { ticket_deadline_status: 'over_due_red' }), f, null)).toBe(true);
    expect(matchesFilters(ticket(1, { ticket_deadline_status: 'critical_yellow' }), f, null)).toBe(false);
  });

  it('team and point of sale, combined with AND', () => {
    const t = ticket(1, { team_id: 2, pos_id: 5 });
    expect(matchesFilters(t, { ...NO_FILTERS, teamId: 2 }, null)).toBe(true);
    expect(matchesFilters(t, { ...NO_FILTERS, teamId: 3 }, null)).toBe(false);
    expect(matchesFilters(t, { ...NO_FILTERS, teamId: 2, posId: 5 }, null)).toBe(true);
    expect(matchesFilters(t, { ...NO_FILTERS, teamId: 2, posId: 6 }, null)).toBe(false);
  });

  it('filters the grouped columns', () => {
    const g = groupTickets([mine, other], [col(10, 1)], priorities, { ...NO_FILTERS, mine: true }, 7);
    expect(g.get(10)?.map((t) => t.ticket_id)).toEqual([1]);
  });

  it('offers the teams and points of sale of the loaded tickets, once each, by label', () => {
    const ts = [ticket(1, { pos_id: 2, pos_id__label: 'Zürich' }), ticket(2, { pos_id: 1, pos_id__label: 'Amiens' }), ticket(3, { pos_id: 2 })];
    expect(filterChoices(ts, 'pos_id')).toEqual([
      { value: '1', label: 'Amiens' },
      { value: '2', label: 'Zürich' },
    ]);
    expect(filterChoices(ts, 'team_id')).toEqual([]);
  });
});

describe('moves and server answers', () => {
  it('moves a card optimistically and rolls it back', () => {
    const before = [ticket(1), ticket(2)];
    const moved = moveTicket(before, 1, 20);
    expect(moved.find((t) => t.ticket_id === 1)?.columnx_id).toBe(20);
    expect(before[0].columnx_id).toBe(10); // the cache's old array is untouched
    const back = restoreTicket(moved, before[0]);
    expect(back.find((t) => t.ticket_id === 1)?.columnx_id).toBe(10);
  });

  it('after a stale move puts the card where the server says it is', () => {
    const original = ticket(1, { columnx_id: 10, row_version: 1 });
    let board = moveTicket([original], 1, 30); // the user's move
    board = restoreTicket(board, original); // 409: back
    board = upsertTicket(board, ticket(1, { columnx_id: 20, row_version: 2 }), 1); // where someone else put it
    expect(board).toHaveLength(1);
    expect(board[0]).toMatchObject({ columnx_id: 20, row_version: 2 });
  });

  it('takes a newer read in, ignores an older one', () => {
    const board = [ticket(1, { row_version: 3, columnx_id: 20 })];
    expect(upsertTicket(board, ticket(1, { row_version: 2, columnx_id: 10 }), 1)).toBe(board);
    expect(upsertTicket(board, ticket(1, { row_version: 4, columnx_id: 30 }), 1)[0].columnx_id).toBe(30);
  });

  it('keeps the optimistic place while the own move is pending unless a newer version comes', () => {
    const board = moveTicket([ticket(1, { row_version: 1 })], 1, 20);
    // A read made before the move: same version, old column.
    expect(upsertTicket(board, ticket(1, { row_version: 1, columnx_id: 10 }), 1, true)[0].columnx_id).toBe(20);
    expect(upsertTicket(board, ticket(1, { row_version: 2, columnx_id: 20 }), 1, true)[0].row_version).toBe(2);
  });

  it('adds tickets new to the board, removes closed ones and those moved to another board', () => {
    const board = [ticket(1)];
    expect(upsertTicket(board, ticket(2), 1).map((t) => t.ticket_id)).toEqual([1, 2]);
    expect(upsertTicket(board, ticket(1, { ticket_closed: 1, row_version: 2 }), 1)).toEqual([]);
    expect(upsertTicket(board, ticket(1, { board_id: 2, row_version: 2 }), 1)).toEqual([]);
    expect(upsertTicket(board, ticket(3, { board_id: 2 }), 1)).toBe(board);
    expect(removeTicket(board, 1)).toEqual([]);
    expect(removeTicket(board, 9)).toBe(board);
  });
});
