import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { backofficeKeys } from './keys';
import type { JobStatus } from './list-jobs';

/** POST /backoffice/jobs/{name}/run: enqueues one run now and answers the job's status. */
export function runJob(name: string): Promise<JobStatus> {
  return api.post<JobStatus>(`/backoffice/jobs/${encodeURIComponent(name)}/run`);
}

export function useRunJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runJob,
    onSuccess: (status) => {
      client.setQueryData<JobStatus[]>(backofficeKeys.jobs(), (jobs) => jobs?.map((job) => (job.name === status.name ? status : job)));
      void client.invalidateQueries({ queryKey: backofficeKeys.jobs() });
    },
  });
}
