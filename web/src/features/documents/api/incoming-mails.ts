/**
 * The incoming-mail screen's calls (decision 0025): GET /emails/incoming
 * (received mails to process, or processed ones), GET /emails/{id} (one
 * mail with its attachments), POST /emails/{id}/confirm (the point of
 * sale, contract and ticket it belongs to) and POST /emails/{id}/archive.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import type { MailView } from '../components/mail-modal';

export interface IncomingPage {
  data: Row[];
  links: { pagination: { current_page: number; last_page: number; total: number } };
}

export interface StoredMail extends MailView {
  row_version: number;
  email_processed: number | boolean;
  pos_id: number | null;
  pos_id__label?: string;
  contract_id: number | null;
  contract_id__label?: string;
  ticket_id: number | null;
  ticket_id__label?: string;
}

export const incomingKeys = {
  all: ['emails'] as const,
  list: (processed: boolean, page: number, keyword: string) => ['emails', 'incoming', processed, page, keyword] as const,
  mail: (id: number) => ['emails', 'mail', id] as const,
};

export function useIncomingMails(processed: boolean, page: number, keyword: string) {
  return useQuery({
    queryKey: incomingKeys.list(processed, page, keyword),
    queryFn: ({ signal }) =>
      api.get<IncomingPage>('/emails/incoming', { query: { processed: processed ? 1 : 0, page, per_page: 25, keyword: keyword || undefined }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useMail(id: number | null) {
  return useQuery({
    queryKey: incomingKeys.mail(id ?? 0),
    queryFn: ({ signal }) => api.get<StoredMail>(`/emails/${id}`, { signal }),
    enabled: id !== null,
  });
}

export interface Decision {
  pos_id: number | null;
  contract_id: number | null;
  ticket_id: number | null;
}

export function confirmMail(mail: StoredMail, decision: Decision): Promise<StoredMail> {
  return api.post<StoredMail>(`/emails/${mail.email_id}/confirm`, { row_version: mail.row_version, ...decision }, { silent: true });
}

export function archiveMail(mail: StoredMail): Promise<StoredMail> {
  return api.post<StoredMail>(`/emails/${mail.email_id}/archive`, { row_version: mail.row_version }, { silent: true });
}

/** The new ticket's fields (POST /tickets' names); the name defaults to the mail's subject on the server. */
export interface TicketFromMail {
  board_id: number | null;
  columnx_id: number | null;
  priority_id: number | null;
  pos_id: number | null;
  contract_id: number | null;
  ticket_name: string;
}

/**
 * POST /emails/{id}/ticket: a ticket made from the mail, all or nothing on
 * the server (the ticket through the ticket rules, the mail linked to it and
 * processed, its attachments among the ticket's documents). Answers the ticket.
 */
export async function createTicketFromMail(mail: StoredMail, ticket: TicketFromMail): Promise<Row> {
  const body: Record<string, unknown> = { row_version: mail.row_version };
  for (const [k, v] of Object.entries(ticket)) {
    if (v !== null && v !== '') body[k] = typeof v === 'string' ? v.trim() : v;
  }
  const answer = await api.post<{ data: Row }>(`/emails/${mail.email_id}/ticket`, body, { silent: true });
  return answer.data;
}
