/** The error dashboard's calls (internal/errorboard): the board, and retrying or dismissing an entry. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface FailedRun {
  id: number;
  name: string;
  attempts: number;
  max_attempts: number;
  error: string;
  finished_at: string | null;
}

export interface UndeliveredMail {
  id: number;
  to: string;
  subject: string;
  created_at: string;
  attempts: number;
  given_up: boolean;
  error: string;
}

export interface FailedAnswer {
  id: number;
  occurred_at: string;
  request_id: string;
  method: string;
  path: string;
  route: string;
  status: number;
  message: string;
}

/** An import whose commit job failed for good: who uploaded which file, when it failed and why. */
export interface FailedImport {
  id: number;
  user_id: number;
  user_email: string;
  entity: string;
  file_name: string;
  rows: number;
  state: string;
  created_at: string;
  failed_at: string;
  reason: string;
  /** Whether the commit may run again (the import is still validated without errors). */
  retryable: boolean;
}

export interface ErrorBoard {
  jobs: FailedRun[];
  mails: UndeliveredMail[];
  /** Absent from a server without the imports section. */
  imports?: FailedImport[];
  responses: FailedAnswer[];
}

export type ErrorSource = 'jobs' | 'mails' | 'imports' | 'responses';

const boardKey = ['dashboard', 'errors'] as const;

/** GET /backoffice/errors, refreshed every 30 seconds while open. */
export function useErrorBoard() {
  return useQuery({
    queryKey: boardKey,
    queryFn: ({ signal }) => api.get<ErrorBoard>('/backoffice/errors', { signal }),
    refetchInterval: 30_000,
  });
}

/** POST /backoffice/errors/{source}/{id}/{retry|dismiss}; the board reloads after it. */
export function useErrorAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ source, id, action }: { source: ErrorSource; id: number; action: 'retry' | 'dismiss' }) =>
      api.post<void>(`/backoffice/errors/${source}/${id}/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: boardKey }),
  });
}
