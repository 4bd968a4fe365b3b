import { i18n } from '../../../lib/i18n-instance';
import { recordKey } from '../../../lib/record-keys';

/** Query keys of the invoice review screens; answers carry labels, so the language is part of them. */
export const invoiceKeys = {
  /** Under the record's shared prefix, so a write elsewhere on the invoice refreshes it. */
  invoice: (id: number) => [...recordKey('invoice', id), 'invoices', i18n.language] as const,
  package: (id: number) => [...recordKey('contradictionpackage', id), 'invoices', i18n.language] as const,
  packageContradictions: (id: number) => ['invoices', 'package-contradictions', id, i18n.language] as const,
  posContradictions: (pos: number) => ['invoices', 'pos-contradictions', pos, i18n.language] as const,
  savings: (groupBy: string, year: number | null) => ['invoices', 'savings', groupBy, year, i18n.language] as const,
};
