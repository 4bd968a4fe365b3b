import { useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { ticketKeys } from './keys';

/** One entry of a ticket's timeline: a trackrecord row. */
export interface TimelineEntry {
  id: number;
  timestamp: string;
  type: string;
  status: string | null;
  comment: string | null;
  changes: string | null;
  user: string | null;
}

function entryOf(row: Row): TimelineEntry {
  const text = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
  return {
    id: Number(row.trackrecord_id),
    timestamp: String(row.trackrecord_timestamp ?? ''),
    type: String(row.trackrecord_type ?? ''),
    status: text(row.trackrecord_status),
    comment: text(row.trackrecord_comment),
    changes: text(row.trackrecord_changes),
    user: text(row.user_id__label),
  };
}

/** The trackrecord rows of a ticket (POST /api/ action history), newest first. */
export async function ticketHistory(id: number, signal?: AbortSignal): Promise<TimelineEntry[]> {
  const answer = await dataProvider.history('ticket', id, signal);
  return answer.data.data.map(entryOf);
}

export function useTicketHistory(id: number | null) {
  return useQuery({
    queryKey: ticketKeys.history(id ?? 0),
    queryFn: ({ signal }) => ticketHistory(id ?? 0, signal),
    enabled: id !== null,
  });
}
