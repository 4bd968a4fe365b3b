import { UnparsedInput } from '../../../lib/validation';

/**
 * The invoice create page's model: which fields each section shows, the
 * body of POST /invoices, and the server's refusals of the value types
 * (answered at ["body","value_types",i,field]) per row.
 */

/** The header: who invoiced what, when. */
export const HEADER_FIELDS = [
  'invoice_number',
  'invoice_date',
  'invoice_date_of_order',
  'invoice_contract_year',
  'company_id',
  'partnertype_id',
  'invoice_payment_date',
  'invoice_allocationarea',
  'invoice_description',
] as const;

/** The billing period. */
export const PERIOD_FIELDS = ['invoice_billing_period_from', 'invoice_billing_period_to'] as const;

/** The contract (its areas are picked beside it). */
export const CONTRACT_FIELDS = ['contract_id'] as const;

/** One value type row of the page: the value type and its value (a number, none, or a text typed that is no number). */
export interface ValueTypeRow {
  key: number;
  invoicevaluetype_id: number | null;
  value: number | null | UnparsedInput;
}

/**
 * The body of POST /invoices: the invoice's fields and the filled value type
 * rows, their values as decimal strings ("1234.5"); a text that is no number
 * goes as typed, for the server to refuse on its row.
 */
export function createInvoiceBody(data: Record<string, unknown>, areas: number[], rows: readonly ValueTypeRow[]) {
  return {
    data: { ...data, area_id: areas },
    value_types: rows
      .filter((r) => r.invoicevaluetype_id !== null)
      .map((r) => ({ invoicevaluetype_id: r.invoicevaluetype_id, value: r.value instanceof UnparsedInput ? r.value.text : r.value === null ? null : String(r.value) })),
  };
}

interface Issue {
  loc: (string | number)[];
  msg: string;
}

/**
 * The refusals of value type rows, by the row's place among the rows sent
 * (the filled ones) and field; other refusals are left out.
 */
export function valueTypeErrors(detail: unknown): Record<number, Record<string, string>> {
  const out: Record<number, Record<string, string>> = {};
  if (!Array.isArray(detail)) return out;
  for (const issue of detail as Issue[]) {
    const loc = issue?.loc ?? [];
    if (loc[0] !== 'body' || loc[1] !== 'value_types' || typeof loc[2] !== 'number') continue;
    const field = String(loc[3] ?? 'value');
    out[loc[2]] = { ...out[loc[2]], [field]: issue.msg };
  }
  return out;
}

/** The refusals of the invoice's own fields, by field (value type refusals left out). */
export function invoiceFieldErrors(detail: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(detail)) return out;
  for (const issue of detail as Issue[]) {
    const loc = issue?.loc ?? [];
    if (loc[1] === 'value_types') continue;
    const field = String(loc[loc.length - 1] ?? '');
    if (field && !out[field]) out[field] = issue.msg;
  }
  return out;
}
