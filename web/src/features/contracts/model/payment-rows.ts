import { ApiError, fieldPath } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';

/**
 * The rows of the recurring payments step. Each row has a key of its own in
 * the page (new rows have no id yet); a stored row keeps its id and
 * row_version, which the save sends back. Saving sends only new and changed
 * rows and the ids of removed ones, all or nothing (PUT /contracts/step/2).
 */
export interface PaymentRow {
  key: string;
  /** recurringpayment_id; null for a row not saved yet. */
  id: number | null;
  version: number | null;
  /** The stored values (empty for a new row). */
  stored: Row;
}

/** The rows of the contract's stored payments, in the order the server answered them. */
export function rowsFrom(payments: readonly Row[] | undefined): PaymentRow[] {
  return (payments ?? []).map((p) => ({
    key: `id-${String(p.recurringpayment_id)}`,
    id: Number(p.recurringpayment_id),
    version: p.row_version == null ? null : Number(p.row_version),
    stored: p,
  }));
}

/** A new, empty row; `seq` makes its key unique on the page. */
export function newRow(seq: number): PaymentRow {
  return { key: `new-${seq}`, id: null, version: null, stored: {} };
}

/** Removes row `key`: a stored row's id joins `removed` (deleted on save), a new row just goes. */
export function removeRow(rows: readonly PaymentRow[], removed: readonly number[], key: string): { rows: PaymentRow[]; removed: number[] } {
  const row = rows.find((r) => r.key === key);
  return {
    rows: rows.filter((r) => r.key !== key),
    removed: row?.id != null ? [...removed, row.id] : [...removed],
  };
}

/** One row to send: its key (to find its errors again) and its data. */
export interface SentRow {
  key: string;
  data: Record<string, unknown>;
}

/**
 * The rows to send: new rows and changed ones, each with the values its form
 * would send; a stored row names itself by id and row_version. `payload`
 * answers a row's form values, `dirty` whether the row changed.
 */
export function rowsToSend(
  rows: readonly PaymentRow[],
  payload: (key: string) => Record<string, unknown>,
  dirty: (key: string) => boolean,
): SentRow[] {
  return rows
    .filter((r) => r.id === null || dirty(r.key))
    .map((r) => ({
      key: r.key,
      data: r.id === null ? payload(r.key) : { ...payload(r.key), recurringpayment_id: r.id, row_version: r.version },
    }));
}

/** The errors of a refused save: per row (by key) and field, and messages for the step as a whole. */
export interface StepErrors {
  rows: Record<string, Record<string, string>>;
  general: string[];
}

/**
 * Maps the 422 of a step 2 save onto the rows that were sent: an error at
 * ["recurringpayments", i, field] belongs to field of the i-th sent row; the
 * rest (a removed id, the contract) concern the step as a whole. Answers
 * null for any other error.
 */
export function rowErrors(error: unknown, sent: readonly SentRow[]): StepErrors | null {
  if (!(error instanceof ApiError) || error.status !== 422 || !Array.isArray(error.detail)) return null;
  const out: StepErrors = { rows: {}, general: [] };
  for (const issue of error.detail) {
    const [list, index, field] = fieldPath(issue.loc);
    const row = list === 'recurringpayments' && typeof index === 'number' ? sent[index] : undefined;
    if (row && typeof field === 'string') {
      const fields = (out.rows[row.key] ??= {});
      fields[field] ??= issue.msg;
    } else {
      out.general.push(issue.msg);
    }
  }
  return out;
}
