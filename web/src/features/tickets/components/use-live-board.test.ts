import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ticketKeys } from '../api/keys';
import type { Ticket } from '../model/board';
import { applyEvents } from './use-live-board';

function ticket(id: number, over: Partial<Ticket> = {}): Ticket {
  return {
    ticket_id: id,
    ticket_name: `T${id}`,
    pos_id: 1,
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

describe('applying live events to the board', () => {
  it('reads changed tickets again: moved, new, gone from view, deleted', async () => {
    const qc = new QueryClient();
    const key = ticketKeys.boardTickets(1);
    qc.setQueryData<Ticket[]>(key, [ticket(1), ticket(2), ticket(3)]);
    const server = new Map<number, Ticket | null>([
      [1, ticket(1, { columnx_id: 20, row_version: 2 })], // moved by someone else
      [4, ticket(4, { columnx_id: 10 })], // created by someone else
      [2, null], // no longer visible to the caller
    ]);
    const read = vi.fn(async (id: number) => server.get(id) ?? null);
    await applyEvents(
      qc,
      1,
      [
        { event_id: '1', entity: 'ticket', id: 1, action: 'update' },
        { event_id: '2', entity: 'ticket', id: 4, action: 'create' },
        { event_id: '3', entity: 'ticket', id: 2, action: 'update' },
        { event_id: '4', entity: 'ticket', id: 3, action: 'delete' },
      ],
      new Set(),
      read,
    );
    const board = qc.getQueryData<Ticket[]>(key) ?? [];
    expect(board.map((t) => [t.ticket_id, t.columnx_id])).toEqual([
      [1, 20],
      [4, 10],
    ]);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('keeps a card of a pending own move in its new column against an older read', async () => {
    const qc = new QueryClient();
    const key = ticketKeys.boardTickets(1);
    qc.setQueryData<Ticket[]>(key, [ticket(1, { columnx_id: 20 })]); // optimistic
    await applyEvents(qc, 1, [{ event_id: '1', entity: 'ticket', id: 1, action: 'update' }], new Set([1]), async () => ticket(1));
    expect(qc.getQueryData<Ticket[]>(key)?.[0].columnx_id).toBe(20);
  });

  it('reloads the whole board for a large batch', async () => {
    const qc = new QueryClient();
    const key = ticketKeys.boardTickets(1);
    qc.setQueryData<Ticket[]>(key, []);
    const read = vi.fn(async () => null);
    const events = Array.from({ length: 30 }, (_, i) => ({ event_id: String(i), entity: 'ticket', id: i + 1, action: 'update' as const }));
    await applyEvents(qc, 1, events, new Set(), read);
    expect(read).not.toHaveBeenCalled();
    expect(qc.getQueryState(key)?.isInvalidated).toBe(true);
  });
});
