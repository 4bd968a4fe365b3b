import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { getTicket } from '../api/get-ticket';
import { ticketKeys } from '../api/keys';
import { streamTicket } from '../api/stream-ticket';
import { removeTicket, type Ticket, upsertTicket } from '../model/board';
import { type LiveEvent, LiveStream, planEvents } from '../model/live-stream';

/** Events are gathered this long before the board is changed once. */
const BATCH_MS = 50;

/** The tickets whose move by this page is still under way (shared with the move hook). */
export type PendingMoves = Set<number>;

/**
 * Applies a batch of events to the board's cached tickets: each created or
 * updated ticket is read again (a ticket the caller may no longer see, or
 * one of another board, leaves the board); many at once, or a reset, reload
 * the board.
 */
export async function applyEvents(
  qc: QueryClient,
  boardId: number,
  events: readonly LiveEvent[],
  pending: PendingMoves,
  read: (id: number) => Promise<Ticket | null> = getTicket,
): Promise<void> {
  const key = ticketKeys.boardTickets(boardId);
  const plan = planEvents(events);
  if (plan.reloadAll) {
    await qc.invalidateQueries({ queryKey: key });
    return;
  }
  for (const id of [...plan.fetch, ...plan.remove]) {
    void qc.invalidateQueries({ queryKey: ticketKeys.history(id) });
    void qc.invalidateQueries({ queryKey: ticketKeys.ticket(id) });
  }
  if (plan.remove.length > 0) {
    qc.setQueryData<Ticket[]>(key, (ts) => (ts ? plan.remove.reduce(removeTicket, ts) : ts));
  }
  await Promise.all(
    plan.fetch.map(async (id) => {
      const fresh = await read(id);
      qc.setQueryData<Ticket[]>(key, (ts) => {
        if (!ts) return ts;
        return fresh ? upsertTicket(ts, fresh, boardId, pending.has(id)) : removeTicket(ts, id);
      });
    }),
  );
}

/**
 * Keeps the board's tickets live: a stream of GET /events while the page is
 * open, its ticket events applied in batches. Answers whether the stream is
 * connected.
 */
export function useLiveBoard(boardId: number, pending: PendingMoves): boolean {
  const qc = useQueryClient();
  const [connected, setConnected] = useState(false);
  const pendingRef = useRef(pending);
  pendingRef.current = pending;

  useEffect(() => {
    if (!(boardId > 0) || typeof EventSource === 'undefined') return;
    let queue: LiveEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      const batch = queue;
      queue = [];
      applyEvents(qc, boardId, batch, pendingRef.current).catch(() => {
        void qc.invalidateQueries({ queryKey: ticketKeys.boardTickets(boardId) });
      });
    };
    const stream = new LiveStream({
      ticket: streamTicket,
      open: (url) => new EventSource(url),
      onEvent: (event) => {
        if (event.entity !== 'ticket') return;
        queue.push(event);
        timer ??= setTimeout(flush, BATCH_MS);
      },
      onReset: () => {
        void qc.invalidateQueries({ queryKey: ticketKeys.boardTickets(boardId) });
      },
      onStatus: setConnected,
    });
    stream.start();
    return () => {
      stream.stop();
      if (timer) clearTimeout(timer);
    };
  }, [boardId, qc]);

  return connected;
}
