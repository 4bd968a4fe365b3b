import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AddressInput } from './address';
import type { CompanyAnswer } from './get-company';
import { masterdataKeys } from './keys';

/** What PUT /companies/ sends: the company (named by id and row_version) and, optionally, its address. */
export interface CompanyUpdate {
  company_id: number;
  row_version: number;
  customergroup_id: number;
  company_name: string;
  company_shortname: string;
  company_buchungskreis: string;
  address?: AddressInput;
}

/** PUT /companies/: company and address in one transaction. */
export function updateCompany(input: CompanyUpdate): Promise<CompanyAnswer> {
  return api.put<CompanyAnswer>('/companies/', input, { silent: true });
}

export function useUpdateCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateCompany,
    onSuccess: (answer, input) => {
      client.setQueryData(masterdataKeys.company(input.company_id), answer);
      void client.invalidateQueries({ queryKey: ['tables'] });
    },
  });
}
