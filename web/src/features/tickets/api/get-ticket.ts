import { ApiError } from '../../../lib/api-client';
import { dataProvider } from '../../../lib/data-provider';
import type { Ticket } from '../model/board';

/**
 * One ticket through the generic read (POST /api/ read), or null when the
 * caller may no longer see it (404, 403).
 */
export async function getTicket(id: number, signal?: AbortSignal): Promise<Ticket | null> {
  try {
    const answer = await dataProvider.one('ticket', id, signal);
    return answer.data as unknown as Ticket;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null;
    throw error;
  }
}
