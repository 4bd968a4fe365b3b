import { describe, expect, it } from 'vitest';
import {
  type BoardColumn,
  deadlineColor,
  dropPlace,
  filterChoices,
  groupTickets,
  matchesFilters,
  moveTicket,
  NO_FILTERS,
  orderedColumns,
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

  it('groups tickets into their columns in rank order, then by number, and leaves out unknown columns', () => {
    const ts = [
      ticket(1, { ticket_rank: 300 }),
      ticket(2, { ticket_rank: 100, ticket_deadline_status: 'over_due_red' }),
      ticket(3, { ticket_rank: 200 }),
      ticket(4, { ticket_rank: 200 }),
      ticket(5, { ticket_rank: -50 }),
      ticket(6, { columnx_id: 20 }),
      ticket(7, { columnx_id: 99 }),
    ];
    const g = groupTickets(ts, [col(10, 1), col(20, 2)]);
    expect(g.get(10)?.map((t) => t.ticket_id)).toEqual([5, 2, 3, 4, 1]);
    expect(g.get(20)?.map((t) => t.ticket_id)).toEqual([6]);
    expect([...g.keys()]).toEqual([10, 20]);
  });

  it('names the badge colours of the deadline status', () => {
    expect(deadlineColor('before_deadline')).toBe('green');
    expect(deadlineColor('critical_yellow')).toBe('yellow');
    expect(deadlineColor('over_due_red')).toBe('red');
    expect(deadlineColor(null)).toBe('gray');
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
    const g = groupTickets([mine, other], [col(10, 1)], { ...NO_FILTERS, mine: true }, 7);
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

  it('places a moved card before another or at the end of a column', () => {
    const ts = [ticket(1, { ticket_rank: 100 }), ticket(2, { ticket_rank: 200 }), ticket(3, { ticket_rank: 300 }), ticket(9, { columnx_id: 20, ticket_rank: 5 })];
    const order = (board: Ticket[], c: number) => groupTickets(board, [col(10, 1), col(20, 2)]).get(c)?.map((t) => t.ticket_id);
    expect(order(moveTicket(ts, 3, 10, 2), 10)).toEqual([1, 3, 2]);
    expect(order(moveTicket(ts, 3, 10, 1), 10)).toEqual([3, 1, 2]);
    expect(order(moveTicket(ts, 1, 10, null), 10)).toEqual([2, 3, 1]);
    const across = moveTicket(ts, 2, 20, 9);
    expect(order(across, 20)).toEqual([2, 9]);
    expect(order(across, 10)).toEqual([1, 3]);
    expect(order(moveTicket(ts, 2, 20), 20)).toEqual([9, 2]);
  });

  it('tells where a dropped card goes', () => {
    const shown = [ticket(1), ticket(2), ticket(3)];
    // Down its own column: after the card dropped on.
    expect(dropPlace(shown, shown[0], 10, 2)).toEqual({ before: 3, same: false });
    expect(dropPlace(shown, shown[0], 10, 3)).toEqual({ before: null, same: false });
    // Up: before it; onto its own successor from above is no move.
    expect(dropPlace(shown, shown[2], 10, 1)).toEqual({ before: 1, same: false });
    expect(dropPlace(shown, shown[1], 10, 3)).toEqual({ before: null, same: false });
    expect(dropPlace(shown, shown[0], 10, 1)).toEqual({ before: null, same: true });
    // On the column itself: the end; the last card stays.
    expect(dropPlace(shown, shown[2], 10, null)).toEqual({ before: null, same: true });
    // Another column: before the card, or the end.
    const stranger = ticket(8, { columnx_id: 20 });
    expect(dropPlace(shown, stranger, 10, 2)).toEqual({ before: 2, same: false });
    expect(dropPlace(shown, stranger, 10, null)).toEqual({ before: null, same: false });
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
