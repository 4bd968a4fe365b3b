import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import { masterdataKeys } from './keys';

/** A company with its address (null without one), as GET /companies/{id} and the saves answer it. */
export interface CompanyAnswer {
  data: Row;
  address: Row | null;
}

/** GET /companies/{id}. */
export function getCompany(id: number, signal?: AbortSignal): Promise<CompanyAnswer> {
  return api.get<CompanyAnswer>(`/companies/${id}`, { signal, silent: true });
}

export const companyQueryOptions = (id: number) =>
  queryOptions({ queryKey: masterdataKeys.company(id), queryFn: ({ signal }) => getCompany(id, signal) });

/** The company of a view or edit page; nothing is asked on the create page (no id). */
export function useCompany(id: number) {
  return useQuery({ ...companyQueryOptions(id), enabled: id > 0 });
}
