import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import { invoiceKeys } from './keys';

/** The exact sums of an invoice (decimal strings with two places). */
export interface InvoiceSums {
  amount_total: string;
  amount_customer: string;
  positions: number;
  claimed: string;
  accepted: string;
  inspection_value: string;
  inspection_realised: string;
}

/** A deadline of the statement (decision 0062), with the rule in the reader's language. */
export interface StatementDeadline {
  kind: 'objection' | 'settlement';
  date: string;
  from: string;
  months: number;
  agreed: boolean;
  passed: boolean;
  explanation: string;
}

/** A contradiction of the invoice with its points. */
export type InvoiceContradiction = Row & { contradiction_id: number; points: Row[] };

/** GET /invoices/{id}: the invoice whole, as its page shows it (a relation the caller may not read is absent). */
export type Invoice = Row & {
  invoice_id: number;
  row_version: number;
  contract: Row | null;
  areas?: Row[];
  value_types?: Row[];
  criteria?: Row[];
  deadlines?: Row[];
  documents?: Row[];
  service_objects?: Row[];
  positions?: Row[];
  contradictions?: InvoiceContradiction[];
  inspection_results?: Row[];
  statement_deadlines?: StatementDeadline[];
  sums: InvoiceSums;
};

export function getInvoice(id: number, signal?: AbortSignal): Promise<Invoice> {
  return api.get<Invoice>(`/invoices/${id}`, { signal });
}

/** The invoice page's data. */
export function useInvoice(id: number) {
  return useQuery({ queryKey: invoiceKeys.invoice(id), queryFn: ({ signal }) => getInvoice(id, signal), enabled: id > 0 });
}
