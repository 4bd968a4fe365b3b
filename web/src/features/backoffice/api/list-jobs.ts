import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { backofficeKeys } from './keys';

/** River's state of a job's latest run; '' when the job never ran. */
export type JobState = '' | 'available' | 'scheduled' | 'pending' | 'running' | 'retryable' | 'completed' | 'discarded' | 'cancelled';

/** A background job and its latest run, as GET /backoffice/jobs answers it. */
export interface JobStatus {
  name: string;
  /** The schedule in English; '' for a job that runs only on demand. */
  schedule: string;
  period_seconds: number;
  offset_seconds: number;
  last_run_at: string | null;
  finished_at: string | null;
  state: JobState;
  attempts: number;
  max_attempts: number;
  last_error: string;
  next_run_at: string | null;
}

/** States in which a run is still to come or under way: the screen then watches it. */
const UNSETTLED: ReadonlySet<JobState> = new Set(['available', 'pending', 'running']);

/** Whether any job has a run waiting or under way right now. */
export function anyUnsettled(jobs: readonly JobStatus[]): boolean {
  return jobs.some((job) => UNSETTLED.has(job.state));
}

/** GET /backoffice/jobs: every registered job with its schedule and latest run (administrators). */
export function listJobs(signal?: AbortSignal): Promise<JobStatus[]> {
  return api.get<{ jobs: JobStatus[] }>('/backoffice/jobs', { signal }).then((answer) => answer.jobs);
}

export const jobsQueryOptions = () =>
  queryOptions({
    queryKey: backofficeKeys.jobs(),
    queryFn: ({ signal }) => listJobs(signal),
    staleTime: 5_000,
    // While a run waits or works, look again every second until it settles.
    refetchInterval: (query) => (query.state.data && anyUnsettled(query.state.data) ? 1_000 : 30_000),
  });

export function useJobs() {
  return useQuery(jobsQueryOptions());
}
