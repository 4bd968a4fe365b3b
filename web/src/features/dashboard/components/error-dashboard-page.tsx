import { ActionIcon, Alert, Badge, Button, Card, CopyButton, Group, Loader, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCheck, IconCopy, IconMailForward, IconRefresh, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { type ErrorSource, useErrorAction, useErrorBoard } from '../api/errors';

/** One section of the board: a titled card with its count, a table under the column headings (the last, actions, unnamed), or a calm empty state. */
function Section({
  title,
  count,
  empty,
  columns,
  actionsWidth,
  children,
}: {
  title: string;
  count: number;
  empty: string;
  columns: string[];
  actionsWidth: number;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="xs" mb="sm">
        <Title order={2} fz="lg">
          {title}
        </Title>
        <Badge color={count > 0 ? 'red' : 'teal'} variant="light">
          {count}
        </Badge>
      </Group>
      {count === 0 ? (
        <Group gap={6} c="dimmed">
          <IconCheck size={16} />
          <Text size="sm">{empty}</Text>
        </Group>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing={6} striped>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c}>{c}</Table.Th>
                ))}
                <Table.Th w={actionsWidth} />
              </Table.Tr>
            </Table.Thead>
            {children}
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/**
 * The error dashboard (administrators and team leads): job runs that
 * failed for good, mail that could not be delivered, imports whose commit
 * failed, and the server's recent failed answers with the request id to
 * look up in the log; runs, mail and still-valid imports can be retried,
 * every entry dismissed (after a confirmation).
 */
export function ErrorDashboardPage() {
  const { t, i18n } = useTranslation();
  const board = useErrorBoard();
  const action = useErrorAction();
  const when = (v: string | null) => (v ? formatDate(v, i18n.language) : '–');

  const run = (source: ErrorSource, id: number, kind: 'retry' | 'dismiss') =>
    action.mutate(
      { source, id, action: kind },
      {
        onSuccess: () => notifySuccess(t(kind === 'retry' ? 'errors.retried' : 'errors.dismissed')),
        onError: (e) => notifyError(e instanceof Error ? e.message : String(e)),
      },
    );
  const dismiss = (source: ErrorSource, id: number, what: string) =>
    modals.openConfirmModal({
      title: t('errors.dismiss_title'),
      children: t('errors.dismiss_confirm', { what }),
      labels: { confirm: t('errors.dismiss'), cancel: t('form.cancel') },
      confirmProps: { color: 'red', 'data-autofocus': true },
      centered: true,
      onConfirm: () => run(source, id, 'dismiss'),
    });
  const dismissButton = (source: ErrorSource, id: number, what: string) => (
    <Tooltip label={t('errors.dismiss')}>
      <ActionIcon variant="subtle" color="gray" aria-label={`${t('errors.dismiss')}: ${what}`} onClick={() => dismiss(source, id, what)}>
        <IconX size={16} />
      </ActionIcon>
    </Tooltip>
  );

  if (board.isPending) return <Loader aria-label="loading" />;
  if (board.isError) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />}>
        {board.error.message}
      </Alert>
    );
  }
  const b = board.data;
  const imports = b.imports ?? [];
  return (
    <Stack gap="lg" maw={1400}>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {t('errors.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('errors.intro')}
          </Text>
        </div>
        <Button variant="default" leftSection={<IconRefresh size={16} />} loading={board.isFetching} onClick={() => void board.refetch()}>
          {t('errors.reload')}
        </Button>
      </Group>

      <Section title={t('errors.jobs')} count={b.jobs.length} empty={t('errors.jobs_empty')} columns={[t('errors.job'), t('errors.failed_at'), t('errors.attempts'), t('errors.error')]} actionsWidth={90}>
        <Table.Tbody>
          {b.jobs.map((j) => (
            <Table.Tr key={j.id} data-testid="error-job">
              <Table.Td>{t(`backoffice.job.${j.name}`, { defaultValue: j.name })}</Table.Td>
              <Table.Td>{when(j.finished_at)}</Table.Td>
              <Table.Td>
                {j.attempts} / {j.max_attempts}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{j.error}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('errors.retry')}>
                    <ActionIcon variant="subtle" aria-label={`${t('errors.retry')}: ${j.name}`} onClick={() => run('jobs', j.id, 'retry')}>
                      <IconRefresh size={16} />
                    </ActionIcon>
                  </Tooltip>
                  {dismissButton('jobs', j.id, j.name)}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Section>

      <Section title={t('errors.mails')} count={b.mails.length} empty={t('errors.mails_empty')} columns={[t('errors.to'), t('errors.subject'), t('errors.queued_at'), t('errors.attempts'), t('errors.error')]} actionsWidth={90}>
        <Table.Tbody>
          {b.mails.map((m) => (
            <Table.Tr key={m.id} data-testid="error-mail">
              <Table.Td>{m.to}</Table.Td>
              <Table.Td>{m.subject}</Table.Td>
              <Table.Td>{when(m.created_at)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {m.given_up ? (
                  <Badge color="red" variant="light">
                    {t('errors.given_up')}
                  </Badge>
                ) : (
                  <Badge color="yellow" variant="light">
                    {t('errors.retrying', { count: m.attempts })}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{m.error}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('errors.send_again')}>
                    <ActionIcon variant="subtle" aria-label={`${t('errors.send_again')}: ${m.subject}`} onClick={() => run('mails', m.id, 'retry')}>
                      <IconMailForward size={16} />
                    </ActionIcon>
                  </Tooltip>
                  {dismissButton('mails', m.id, m.subject)}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Section>

      <Section
        title={t('errors.imports')}
        count={imports.length}
        empty={t('errors.imports_empty')}
        columns={[t('errors.file'), t('errors.uploaded_by'), t('errors.failed_at'), t('errors.error')]}
        actionsWidth={90}
      >
        <Table.Tbody>
          {imports.map((f) => (
            <Table.Tr key={f.id} data-testid="error-import">
              <Table.Td>
                <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                  {f.file_name}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`entity.${f.entity}`, { defaultValue: f.entity })} · {t('errors.import_rows', { count: f.rows })}
                </Text>
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{f.user_email}</Table.Td>
              <Table.Td>{when(f.failed_at)}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>
                {f.reason}
                {!f.retryable && (
                  <Text size="xs" c="dimmed">
                    {t('errors.not_retryable')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  {f.retryable && (
                    <Tooltip label={t('errors.commit_again')}>
                      <ActionIcon variant="subtle" aria-label={`${t('errors.commit_again')}: ${f.file_name}`} onClick={() => run('imports', f.id, 'retry')}>
                        <IconRefresh size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {dismissButton('imports', f.id, f.file_name)}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Section>

      <Section title={t('errors.responses')} count={b.responses.length} empty={t('errors.responses_empty')} columns={[t('errors.occurred_at'), t('errors.request_id'), t('errors.request'), t('errors.status'), t('errors.error')]} actionsWidth={50}>
        <Table.Tbody>
          {b.responses.map((r) => (
            <Table.Tr key={r.id} data-testid="error-response">
              <Table.Td>{when(r.occurred_at)}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Text ff="monospace" size="sm">
                    {r.request_id}
                  </Text>
                  <CopyButton value={r.request_id}>
                    {({ copied, copy }) => (
                      <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} aria-label={t('errors.copy_id')} onClick={copy}>
                        {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                      </ActionIcon>
                    )}
                  </CopyButton>
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {r.method} {r.path}
                </Text>
              </Table.Td>
              <Table.Td>{r.status}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{r.message}</Table.Td>
              <Table.Td>{dismissButton('responses', r.id, r.request_id)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Section>
    </Stack>
  );
}

export default ErrorDashboardPage;
