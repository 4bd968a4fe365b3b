import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { masterdataKeys } from './keys';

/** One tax rate of a company. */
export interface TaxRate {
  taxrate_id: number;
  company_id: number;
  taxrate_code: string;
  taxrate_value: number;
  row_version: number;
}

interface TaxRatePage {
  data: TaxRate[];
}

/** GET /companies/{id}/tax-rates (administrators only). */
export function listTaxRates(companyId: number, signal?: AbortSignal): Promise<TaxRatePage> {
  return api.get<TaxRatePage>(`/companies/${companyId}/tax-rates`, { query: { per_page: 1000 }, signal, silent: true });
}

export const taxRatesQueryOptions = (companyId: number) =>
  queryOptions({
    queryKey: masterdataKeys.taxRates(companyId),
    queryFn: ({ signal }) => listTaxRates(companyId, signal),
  });

export function useTaxRates(companyId: number, enabled: boolean) {
  return useQuery({ ...taxRatesQueryOptions(companyId), enabled });
}

/** What POST /companies/{id}/tax-rates sends. */
export interface TaxRateInput {
  taxrate_code: string;
  /** 0 to 100. */
  taxrate_value: number;
}

/** POST /companies/{id}/tax-rates. */
export function createTaxRate(companyId: number, input: TaxRateInput): Promise<{ data: TaxRate }> {
  return api.post<{ data: TaxRate }>(`/companies/${companyId}/tax-rates`, input);
}

export function useCreateTaxRate(companyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TaxRateInput) => createTaxRate(companyId, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: masterdataKeys.taxRates(companyId) }),
  });
}

/** DELETE /companies/{id}/tax-rates with the list of ids. */
export function deleteTaxRates(companyId: number, ids: number[]): Promise<{ deleted: number[] }> {
  return api.delete<{ deleted: number[] }>(`/companies/${companyId}/tax-rates`, ids);
}

export function useDeleteTaxRates(companyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => deleteTaxRates(companyId, ids),
    onSuccess: () => void client.invalidateQueries({ queryKey: masterdataKeys.taxRates(companyId) }),
  });
}

/** What PUT /companies/{id}/tax-rates/{taxrate_id} sends: the changed rate, named by its row_version. */
export interface TaxRateUpdate extends TaxRateInput {
  taxrate_id: number;
  row_version: number;
}

/** PUT /companies/{id}/tax-rates/{taxrate_id} (administrators only). */
export function updateTaxRate(companyId: number, input: TaxRateUpdate): Promise<{ data: TaxRate }> {
  const { taxrate_id, ...body } = input;
  return api.put<{ data: TaxRate }>(`/companies/${companyId}/tax-rates/${taxrate_id}`, body, { silent: true });
}

export function useUpdateTaxRate(companyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TaxRateUpdate) => updateTaxRate(companyId, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: masterdataKeys.taxRates(companyId) }),
  });
}
