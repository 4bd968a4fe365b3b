import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Ticket } from '../model/board';
import { ticketKeys } from './keys';

/** The page size of the board's ticket reads. */
export const BOARD_PAGE_SIZE = 2000;

interface TicketListAnswer {
  data: Ticket[];
  links?: { pagination?: { current_page: number; last_page: number; total: number } };
}

/** GET /tickets?board_id=&status=opened: every open ticket of the board; after the first page the others at once. */
export async function listBoardTickets(boardId: number, signal?: AbortSignal): Promise<Ticket[]> {
  const page = (n: number) =>
    api.get<TicketListAnswer>('/tickets', {
      query: { board_id: boardId, status: 'opened', per_page: BOARD_PAGE_SIZE, page: n, order_by: 'ticket_id', order: 'asc' },
      signal,
    });
  const first = await page(1);
  const last = first.links?.pagination?.last_page ?? 1;
  const rest = await Promise.all(Array.from({ length: Math.max(0, last - 1) }, (_, i) => page(i + 2)));
  return [first, ...rest].flatMap((answer) => answer.data ?? []);
}

export function useBoardTickets(boardId: number) {
  return useQuery({
    queryKey: ticketKeys.boardTickets(boardId),
    queryFn: ({ signal }) => listBoardTickets(boardId, signal),
    enabled: boardId > 0,
    // The live stream keeps it current.
    staleTime: Infinity,
  });
}
