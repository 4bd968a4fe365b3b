import { api } from '../../../lib/api-client';

/** POST /events/ticket: a single-use ticket that opens GET /events within 60 s. */
export async function streamTicket(): Promise<string> {
  const answer = await api.post<{ ticket: string }>('/events/ticket', {}, { silent: true });
  return answer.ticket;
}
