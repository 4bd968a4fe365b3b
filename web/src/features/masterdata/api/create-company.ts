import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AddressInput } from './address';
import type { CompanyAnswer } from './get-company';
import { masterdataKeys } from './keys';

/** What POST /companies/ sends: the new company and, optionally, its address. */
export interface CompanyCreate {
  customergroup_id: number;
  company_name: string;
  company_shortname: string;
  company_buchungskreis: string;
  address?: AddressInput;
}

/** POST /companies/: company and address in one transaction. */
export function createCompany(input: CompanyCreate): Promise<CompanyAnswer> {
  return api.post<CompanyAnswer>('/companies/', input, { silent: true });
}

export function useCreateCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: (answer) => {
      client.setQueryData(masterdataKeys.company(Number(answer.data.company_id)), answer);
      void client.invalidateQueries({ queryKey: ['tables'] });
    },
  });
}
