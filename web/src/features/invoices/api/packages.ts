/**
 * The contradiction package screens' calls: the package, the contradictions
 * of a point of sale (through its contracts and their invoices), putting a
 * contradiction into a package or taking it out (the generic field update;
 * the server refuses a contradiction of another point of sale), and the
 * package's letter as a PDF.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type DownloadedFile } from '../../../lib/api-client';
import { dataProvider } from '../../../lib/data-provider';
import { isLanguage, type Language } from '../../../lib/language';
import { invalidateRecord } from '../../../lib/record-keys';
import type { Row } from '../../../lib/table-definition';
import { tableKeys } from '../../tables/api/keys';
import { invoiceKeys } from './keys';

/** The rows of `entity` whose `field` is one of `ids` (none when ids is empty). */
async function rowsWhereIn(entity: string, field: string, ids: number[], signal?: AbortSignal): Promise<Row[]> {
  if (ids.length === 0) return [];
  const answer = await dataProvider.list(entity, { filter: [{ field, op: 'in', value: ids }], perPage: 10000 }, signal);
  return answer.data.data;
}

/** The contradictions of point of sale `pos`: those of the invoices of its contracts. */
export async function posContradictions(pos: number, signal?: AbortSignal): Promise<Row[]> {
  const contracts = await rowsWhereIn('contract', 'pos_id', [pos], signal);
  const invoices = await rowsWhereIn('invoice', 'contract_id', contracts.map((c) => Number(c.contract_id)), signal);
  return rowsWhereIn('contradiction', 'invoice_id', invoices.map((i) => Number(i.invoice_id)), signal);
}

export function usePosContradictions(pos: number | null) {
  return useQuery({
    queryKey: invoiceKeys.posContradictions(pos ?? 0),
    queryFn: ({ signal }) => posContradictions(pos ?? 0, signal),
    enabled: pos !== null && pos > 0,
  });
}

/** The package's own record. */
export function usePackage(id: number) {
  return useQuery({
    queryKey: invoiceKeys.package(id),
    queryFn: ({ signal }) => dataProvider.one('contradictionpackage', id, signal),
    enabled: id > 0,
  });
}

/** The language a package's letter is offered in first: its point of sale's company's language (German when unset). */
export async function packageLanguage(pos: number, signal?: AbortSignal): Promise<Language> {
  const p = await dataProvider.one('pos', pos, signal);
  const company = Number(p.data.company_id ?? 0);
  if (!company) return 'de';
  const c = await dataProvider.one('company', company, signal);
  const lang = String(c.data.company_language ?? '');
  return isLanguage(lang) ? lang : 'de';
}

export function usePackageLanguage(pos: number | null) {
  return useQuery({
    queryKey: ['invoices', 'package-language', pos ?? 0],
    queryFn: ({ signal }) => packageLanguage(pos ?? 0, signal),
    enabled: pos !== null && pos > 0,
    retry: false,
  });
}

/** Refreshes what shows a package and its contradictions. */
function refreshPackages(client: ReturnType<typeof useQueryClient>, packageId: number) {
  return Promise.all([
    invalidateRecord(client, 'contradictionpackage', packageId),
    client.invalidateQueries({ queryKey: ['invoices', 'pos-contradictions'] }),
    client.invalidateQueries({ queryKey: ['record', 'invoice'] }),
    client.invalidateQueries({ queryKey: tableKeys.lists('contradiction') }),
    client.invalidateQueries({ queryKey: tableKeys.lists('contradictionpackage') }),
  ]);
}

export interface PackContradiction {
  id: number;
  rowVersion: number | null;
}

/** Puts a contradiction into package `packageId`, or takes it out (null). */
export function useSetPackage(packageId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ contradiction, into }: { contradiction: PackContradiction; into: boolean }) =>
      dataProvider.updateField('contradiction', contradiction.id, 'contradictionpackage_id', into ? packageId : null, contradiction.rowVersion),
    onSuccess: () => refreshPackages(client, packageId),
  });
}

export interface CreatePackageInput {
  pos_id: number;
  contradictionpackage_name: string;
  contradictionpackage_description: string | null;
  contradiction_ids: number[];
}

/** The answer of POST /contradictionpackages. */
export interface CreatedPackage {
  id: number;
  data: Row;
  contradiction_ids: number[];
}

/**
 * Creates the package with the picked contradictions in one call (POST
 * /contradictionpackages): the server writes all of it or nothing and
 * refuses a contradiction of another point of sale (422) or tenant (404).
 */
export function createPackage(input: CreatePackageInput): Promise<CreatedPackage> {
  const { contradiction_ids, ...data } = input;
  return api.post<CreatedPackage>('/contradictionpackages', { data, contradiction_ids }, { silent: true });
}

export function useCreatePackage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPackage,
    onSuccess: (answer) => refreshPackages(client, answer.id),
  });
}

/** Fetches the package's letter in `lang` with the session's token; answers it as a file. */
export function fetchLetter(id: number, lang: Language): Promise<DownloadedFile> {
  return api.get<DownloadedFile>(`/contradictionpackages/${id}/letter.pdf`, { query: { lang }, responseType: 'blob', silent: true });
}

/** Downloads the package's letter in `lang`. */
export async function downloadLetter(id: number, lang: Language): Promise<void> {
  const file = await fetchLetter(id, lang);
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? `contradiction-package-${id}-${lang}.pdf`;
  link.click();
  URL.revokeObjectURL(url);
}

/** An invoice of a package whose objection deadline (decision 0062) has passed. */
export interface LateInvoice {
  invoiceId: number;
  label: string;
  deadline: string;
}

/**
 * The invoices of `invoiceIds` whose objection deadline lies before
 * `today` (YYYY-MM-DD): a letter objecting to them now may come too late.
 */
export async function lateInvoices(invoiceIds: number[], today: string, signal?: AbortSignal): Promise<LateInvoice[]> {
  const rows = await rowsWhereIn('invoice', 'invoice_id', invoiceIds, signal);
  return rows
    .filter((r) => typeof r.invoice_objection_deadline === 'string' && r.invoice_objection_deadline < today)
    .map((r) => ({
      invoiceId: Number(r.invoice_id),
      label: String(r.invoice_number ?? `#${String(r.invoice_id)}`),
      deadline: String(r.invoice_objection_deadline),
    }));
}

export function useLateInvoices(invoiceIds: number[], today: string) {
  const ids = [...new Set(invoiceIds)].sort((a, b) => a - b);
  return useQuery({
    queryKey: ['invoices', 'late', ids, today],
    queryFn: ({ signal }) => lateInvoices(ids, today, signal),
    enabled: ids.length > 0,
  });
}
