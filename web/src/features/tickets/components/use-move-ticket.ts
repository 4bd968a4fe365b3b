import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { getTicket } from '../api/get-ticket';
import { ticketKeys } from '../api/keys';
import { updateTicket } from '../api/update-ticket';
import { moveTicket, removeTicket, restoreTicket, type Ticket, upsertTicket } from '../model/board';
import type { PendingMoves } from './use-live-board';

/**
 * Moving a card to a column, right before another card of it (null: at its
 * end): at once on the board (optimistic), then PUT /tickets/update with the
 * column, the place (before_ticket_id) and the row_version read. When the server refuses
 * (409 stale, 422 a column rule), the card goes back and then to where the
 * server says the ticket is, and a notification shows the server's detail.
 */
export function useMoveTicket(boardId: number): {
  move: (ticket: Ticket, to: number, before?: number | null) => Promise<void>;
  pending: PendingMoves;
} {
  const qc = useQueryClient();
  const pending = useRef<PendingMoves>(new Set()).current;
  const move = useCallback(
    async (ticket: Ticket, to: number, before: number | null = null) => {
      const key = ticketKeys.boardTickets(boardId);
      const id = ticket.ticket_id;
      pending.add(id);
      qc.setQueryData<Ticket[]>(key, (ts) => (ts ? moveTicket(ts, id, to, before) : ts));
      try {
        const saved = await updateTicket(id, ticket.row_version, ticket.columnx_id === to ? { before_ticket_id: before } : { columnx_id: to, before_ticket_id: before });
        pending.delete(id);
        qc.setQueryData<Ticket[]>(key, (ts) => (ts ? upsertTicket(ts, saved, boardId) : ts));
      } catch (error) {
        pending.delete(id);
        qc.setQueryData<Ticket[]>(key, (ts) => (ts ? restoreTicket(ts, ticket) : ts));
        notifyError(errorMessage(error));
        const fresh = await getTicket(id).catch(() => undefined);
        if (fresh === undefined) return;
        qc.setQueryData<Ticket[]>(key, (ts) => (ts ? (fresh ? upsertTicket(ts, fresh, boardId) : removeTicket(ts, id)) : ts));
      }
    },
    [boardId, pending, qc],
  );
  return { move, pending };
}
