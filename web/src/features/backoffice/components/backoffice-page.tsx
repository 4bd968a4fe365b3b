import { Alert, Badge, Button, Code, Group, Loader, Stack, Table, Tabs, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconClock, IconKey, IconLanguage, IconMail, IconPlayerPlay, IconRefresh } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { dateFormatFor } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { type JobState, type JobStatus, useJobs } from '../api/list-jobs';
import { useRunJob } from '../api/run-job';
import { OutboxPanel, RightsPanel, TranslationsPanel } from './backoffice-panels';

const STATE_COLORS: Record<JobState, string> = {
  '': 'gray',
  available: 'blue',
  scheduled: 'blue',
  pending: 'blue',
  running: 'cyan',
  retryable: 'orange',
  completed: 'teal',
  discarded: 'red',
  cancelled: 'gray',
};

/** Cells that keep to one line: timestamps, the state, the attempts. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;
/** The state badge shows its whole word (a clipped label would make the cell as narrow as it can be). */
const BADGE_STYLES = { label: { overflow: 'visible' } } as const;

/** A job's title in the user's language, its name when no text names it. */
export function jobTitle(t: TFunction, exists: (key: string) => boolean, name: string): string {
  return exists(`backoffice.job.${name}`) ? t(`backoffice.job.${name}`) : name;
}

/** The schedule in words: daily at a UTC time, every n hours or minutes, or on demand. */
export function scheduleText(t: TFunction, job: Pick<JobStatus, 'period_seconds' | 'offset_seconds'>): string {
  const { period_seconds: period, offset_seconds: offset } = job;
  if (period <= 0) return t('backoffice.schedule.on_demand');
  if (period === 86_400) {
    const pad = (n: number) => String(n).padStart(2, '0');
    const time = `${pad(Math.floor(offset / 3_600))}:${pad(Math.floor((offset % 3_600) / 60))}`;
    return t('backoffice.schedule.daily', { time });
  }
  if (period === 3_600) return t('backoffice.schedule.hourly');
  if (period % 3_600 === 0) return t('backoffice.schedule.hours', { count: period / 3_600 });
  const minutes = Math.max(1, Math.round(period / 60));
  return minutes === 1 ? t('backoffice.schedule.every_minute') : t('backoffice.schedule.minutes', { count: minutes });
}

/** A timestamp in the user's date format and time zone (to the second for runs that happened); '—' when there is none. */
function timestamp(value: string | null, lang: string, seconds = true): string {
  return value ? dayjs(value).format(`${dateFormatFor(lang)} ${seconds ? 'HH:mm:ss' : 'HH:mm'}`) : '—';
}

/**
 * /app/backoffice: the background jobs (their schedule and latest run; run
 * one now), the mail outbox, the translation tables' edits and the rights
 * generation, one tab each.
 */
export default function BackofficePage() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Title order={1} size="h2">
        {t('backoffice.title')}
      </Title>
      <Tabs defaultValue="jobs" keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="jobs" leftSection={<IconClock size={16} />}>
            {t('backoffice.jobs')}
          </Tabs.Tab>
          <Tabs.Tab value="outbox" leftSection={<IconMail size={16} />}>
            {t('backoffice.outbox.title')}
          </Tabs.Tab>
          <Tabs.Tab value="translations" leftSection={<IconLanguage size={16} />}>
            {t('backoffice.translations.title')}
          </Tabs.Tab>
          <Tabs.Tab value="rights" leftSection={<IconKey size={16} />}>
            {t('backoffice.rights.title')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="jobs">
          <JobsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="outbox">
          <OutboxPanel />
        </Tabs.Panel>
        <Tabs.Panel value="translations">
          <TranslationsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="rights">
          <RightsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** The background jobs, their schedule and latest run; administrators run one now. */
function JobsPanel() {
  const { t, i18n } = useTranslation();
  const jobs = useJobs();
  const run = useRunJob();

  const confirmRun = (job: JobStatus) => {
    const title = jobTitle(t, (key) => i18n.exists(key), job.name);
    modals.openConfirmModal({
      title: t('backoffice.run_title'),
      children: t('backoffice.run_confirm', { job: title }),
      labels: { confirm: t('backoffice.run_now'), cancel: t('form.cancel') },
      confirmProps: { 'data-autofocus': true },
      centered: true,
      onConfirm: () =>
        run.mutate(job.name, {
          onSuccess: () => notifySuccess(t('backoffice.run_queued', { job: title })),
          onError: (error) => {
            if (!(error instanceof ApiError && error.notified)) notifyError(errorMessage(error));
          },
        }),
    });
  };

  const rows = jobs.data ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed">
          {t('backoffice.jobs_intro')}
        </Text>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={() => jobs.refetch()}
          loading={jobs.isFetching && !jobs.data}
        >
          {t('general.reload')}
        </Button>
      </Group>
      {jobs.isError && !jobs.data ? (
        <Alert color="red" title={t('backoffice.load_failed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(jobs.error)}</Text>
            <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => jobs.refetch()}>
              {t('general.reload')}
            </Button>
          </Stack>
        </Alert>
      ) : !jobs.data ? (
        <Group justify="center" p="xl">
          <Loader />
        </Group>
      ) : rows.length === 0 ? (
        <Text fw={500} ta="center" p="xl" data-testid="empty-state">
          {t('backoffice.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover withTableBorder fz="sm" horizontalSpacing="xs" aria-label={t('backoffice.jobs')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('backoffice.col.job')}</Table.Th>
                <Table.Th>{t('backoffice.col.schedule')}</Table.Th>
                <Table.Th>{t('backoffice.col.last_run')}</Table.Th>
                <Table.Th>{t('backoffice.col.state')}</Table.Th>
                <Table.Th>{t('backoffice.col.attempts')}</Table.Th>
                <Table.Th>{t('backoffice.col.last_error')}</Table.Th>
                <Table.Th>{t('backoffice.col.next_run')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('backoffice.col.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((job) => {
                const title = jobTitle(t, (key) => i18n.exists(key), job.name);
                return (
                  <Table.Tr key={job.name} data-job={job.name}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {title}
                      </Text>
                      <Code>{job.name}</Code>
                    </Table.Td>
                    <Table.Td>{scheduleText(t, job)}</Table.Td>
                    <Table.Td data-testid="last-run" style={NO_WRAP}>{timestamp(job.last_run_at, i18n.language)}</Table.Td>
                    <Table.Td style={NO_WRAP}>
                      <Badge variant="light" color={STATE_COLORS[job.state] ?? 'gray'} data-testid="state" styles={BADGE_STYLES}>
                        {t(`backoffice.state.${job.state || 'never'}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={NO_WRAP}>
                      {job.attempts} / {job.max_attempts}
                    </Table.Td>
                    <Table.Td maw={280}>
                      {job.last_error ? (
                        <Tooltip label={job.last_error} multiline w={320}>
                          <Text size="sm" c="red" lineClamp={2}>
                            {job.last_error}
                          </Text>
                        </Tooltip>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td style={NO_WRAP}>{timestamp(job.next_run_at, i18n.language, false)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconPlayerPlay size={14} />}
                        onClick={() => confirmRun(job)}
                        loading={run.isPending && run.variables === job.name}
                        aria-label={t('backoffice.run_job', { job: title })}
                      >
                        {t('backoffice.run_now')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
