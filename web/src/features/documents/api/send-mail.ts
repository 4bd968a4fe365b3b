/**
 * POST /emails/send: a mail with documents attached, sent through the
 * outbox and stored as an email row of the ticket and its point of sale.
 */
import { api } from '../../../lib/api-client';

export interface SendMailInput {
  email_to: string[];
  email_cc: string[];
  email_subject: string;
  /** HTML from the rich editor; the server sanitizes it. */
  email_body: string;
  /** Document ids (the field name is the contract's spelling). */
  email_attachements: number[];
  ticket_id?: number;
  pos_id?: number;
}

export function sendMail(input: SendMailInput): Promise<{ email_id: number }> {
  return api.post<{ email_id: number }>('/emails/send', input, { silent: true });
}

/** A bare mail address as the server accepts it (no display name, no list). */
export function isMailAddress(value: string): boolean {
  return /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]{2,}$/.test(value.trim());
}
