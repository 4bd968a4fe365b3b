import { api } from '../../../lib/api-client';

/**
 * POST /tickets/comment: a comment on the ticket's timeline (decision 0027);
 * 422 for an empty or too long text, 404 for a ticket the caller does not see.
 */
export async function commentTicket(id: number, comment: string): Promise<void> {
  await api.post('/tickets/comment', { ticket_id: id, comment });
}
