import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TFunction } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';
import type { JobStatus } from '../api/list-jobs';
import de from '../../../../../internal/i18n/locales/de.json';
import en from '../../../../../internal/i18n/locales/en.json';
import fr from '../../../../../internal/i18n/locales/fr.json';
import { jobTitle } from './backoffice-page';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }]);

const SWEEP: JobStatus = {
  name: 'document_sweep',
  schedule: 'daily at 03:00 UTC',
  period_seconds: 86_400,
  offset_seconds: 10_800,
  last_run_at: '2026-05-01T03:00:01Z',
  finished_at: '2026-05-01T03:00:02Z',
  state: 'completed',
  attempts: 1,
  max_attempts: 5,
  last_error: '',
  next_run_at: '2026-05-02T03:00:00Z',
};
const PURGE: JobStatus = {
  ...SWEEP,
  name: 'session_purge',
  offset_seconds: 12_000,
  state: 'retryable',
  attempts: 2,
  last_error: 'database is locked',
};

/** The real route tree with lazy pages: generous time on a busy machine. */
const SLOW = { timeout: 45_000 };
const WAIT = { timeout: 5000 };

function jobsApi(jobs: JobStatus[] | 'broken') {
  return (call: RecordedCall): Response | undefined => {
    if (call.url === '/backoffice/jobs' && call.method === 'GET') {
      return jobs === 'broken' ? json(500, { detail: 'The server could not answer.' }) : json(200, { jobs });
    }
    const run = /^\/backoffice\/jobs\/([a-z_]+)\/run$/.exec(call.url);
    if (run && call.method === 'POST') return json(202, { ...SWEEP, name: run[1], state: 'available', attempts: 0 });
    return undefined;
  };
}

describe('the Back Office', SLOW, () => {
  it('lists the jobs with schedule, state, attempts and last error', async () => {
    loginAs(admin);
    renderApp('/app/backoffice', admin, jobsApi([SWEEP, PURGE]));
    const table = await screen.findByRole('table', { name: 'Background jobs' }, WAIT);
    expect(screen.getByRole('heading', { level: 1, name: 'Back Office' })).toBeInTheDocument();
    const sweep = within(table).getByText('Document file sweep').closest('tr')!;
    expect(sweep).toHaveTextContent('Daily at 03:00 UTC');
    expect(sweep).toHaveTextContent('Completed');
    expect(sweep).toHaveTextContent('1 / 5');
    const purge = within(table).getByText('Purge ended sessions').closest('tr')!;
    expect(purge).toHaveTextContent('Daily at 03:20 UTC');
    expect(purge).toHaveTextContent('Retrying');
    expect(purge).toHaveTextContent('database is locked');
  });

  it('runs a job only after a confirmation and says so', async () => {
    loginAs(admin);
    const { server } = renderApp('/app/backoffice', admin, jobsApi([SWEEP]));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Run Document file sweep now' }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: 'Run the job now' }, WAIT);
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(server.calls.some((c) => c.url === '/backoffice/jobs/document_sweep/run' && c.method === 'POST')).toBe(true));
    expect(await screen.findByText('“Document file sweep” is queued and runs shortly.', {}, WAIT)).toBeInTheDocument();
  });

  it('shows the empty and the error state', async () => {
    loginAs(admin);
    const empty = renderApp('/app/backoffice', admin, jobsApi([]));
    expect(await screen.findByTestId('empty-state', {}, WAIT)).toHaveTextContent('No background jobs are registered.');
    empty.unmount();
    renderApp('/app/backoffice', admin, jobsApi('broken'));
    expect(await screen.findByText('The jobs could not be loaded', {}, { timeout: 15_000 })).toBeInTheDocument();
  });
});

describe('job titles', () => {
  // The jobs the server runs: internal/app (scheduled), indexation.JobName, imports.CommitJob.
  const JOBS = [
    'document_sweep',
    'mail_fetch',
    'session_purge',
    'text_index_merge',
    'planner_statistics',
    'deadline_notice_dates',
    'deadline_alerts',
    'index_adjustments',
    'import_commit',
  ];
  it('names every job in words in each language, never by its code', () => {
    for (const texts of [en, de, fr] as Record<string, string>[]) {
      const titles = JOBS.map((name) => jobTitle(((key: string) => texts[key]) as unknown as TFunction, (key) => key in texts, name));
      expect(titles.filter((title, i) => title === JOBS[i] || !title)).toEqual([]);
    }
  });
});
