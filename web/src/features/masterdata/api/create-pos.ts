import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** What POST /pos sends; pos_internal_id defaults to 56 on the server. */
export interface PosInput {
  company_id: number;
  pos_name: string;
  pos_branchnumber: string;
  pos_name_external?: string;
  pos_first_year: number;
  /** YYYY-MM-DD */
  pos_opening_date: string;
  contactperson_id: number;
  pos_internal_id?: number;
}

/** POST /pos: a new point of sale. */
export function createPos(input: PosInput): Promise<{ data: { pos_id: number } }> {
  return api.post<{ data: { pos_id: number } }>('/pos', input);
}

export function useCreatePos() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createPos, onSuccess: () => void client.invalidateQueries() });
}
