/**
 * /app/incoming-mails and /app/classification-summary (one screen): the
 * received mails to process, newest first. Choosing one shows it read-only
 * with its attachments and the suggested point of sale, contract and
 * ticket; a person confirms or changes them (the mail is then attached to
 * that ticket and point of sale) or archives the mail.
 */
import { Alert, Badge, Button, Card, Grid, Group, Loader, Pagination, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArchive, IconCheck, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from '../../../components/form/remote-select';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDefinition } from '../../tables/api/get-definition';
import { archiveMail, confirmMail, type Decision, incomingKeys, type StoredMail, useIncomingMails, useMail } from '../api/incoming-mails';
import { MailBody } from './mail-modal';

const REF_FIELDS = ['pos_id', 'contract_id', 'ticket_id'] as const;

function Classification({ mail, onDone }: { mail: StoredMail; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const def = useDefinition('email');
  const [decision, setDecision] = useState<Decision>({ pos_id: mail.pos_id, contract_id: mail.contract_id, ticket_id: mail.ticket_id });
  const [busy, setBusy] = useState<'confirm' | 'archive' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    setDecision({ pos_id: mail.pos_id, contract_id: mail.contract_id, ticket_id: mail.ticket_id });
    setFailure(null);
  }, [mail]);
  const processed = Boolean(Number(mail.email_processed));
  const run = async (kind: 'confirm' | 'archive') => {
    setBusy(kind);
    setFailure(null);
    try {
      const saved = kind === 'confirm' ? await confirmMail(mail, decision) : await archiveMail(mail);
      qc.setQueryData(incomingKeys.mail(mail.email_id), saved);
      void qc.invalidateQueries({ queryKey: ['emails', 'incoming'] });
      notifySuccess(kind === 'confirm' ? t('mailbox.incoming.confirmed') : t('mailbox.incoming.archived'));
      onDone();
    } catch (error) {
      const message = errorMessage(error);
      setFailure(message);
      notifyError(message);
      void qc.invalidateQueries({ queryKey: incomingKeys.mail(mail.email_id) });
    } finally {
      setBusy(null);
    }
  };
  const labels: Record<string, string | undefined> = { pos_id: mail.pos_id__label, contract_id: mail.contract_id__label, ticket_id: mail.ticket_id__label };
  return (
    <Stack gap="sm">
      <Title order={4}>{processed ? t('mailbox.incoming.decision') : t('mailbox.incoming.suggestion')}</Title>
      {REF_FIELDS.map((field) => {
        const attr = def.data?.attributes.find((a) => a.attribute === field);
        if (!attr?.ref) return null;
        const value = decision[field];
        return (
          <RemoteSelect
            key={field}
            refDef={attr.ref}
            label={attr.attribute_i18n || field}
            value={value}
            onChange={(v) => setDecision((d) => ({ ...d, [field]: typeof v === 'number' ? v : null }))}
            knownLabels={value && labels[field] ? { [String(value)]: labels[field] as string } : undefined}
            source={{ entity: 'email', field }}
            record={{ ...decision }}
            readOnly={processed}
            nothingFound={t('mailbox.incoming.nothing_found')}
            data-field={field}
          />
        );
      })}
      {failure && (
        <Alert color="red" role="alert" variant="light">
          {failure}
        </Alert>
      )}
      {!processed && (
        <Group justify="flex-end">
          <Button variant="default" leftSection={<IconArchive size={16} />} loading={busy === 'archive'} disabled={busy !== null} onClick={() => void run('archive')}>
            {t('mailbox.incoming.archive')}
          </Button>
          <Button
            leftSection={<IconCheck size={16} />}
            loading={busy === 'confirm'}
            disabled={busy !== null || (!decision.pos_id && !decision.contract_id && !decision.ticket_id)}
            onClick={() => void run('confirm')}
          >
            {t('mailbox.incoming.confirm')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export default function IncomingMailsPage() {
  const { t, i18n } = useTranslation();
  const [processed, setProcessed] = useState(false);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [keyword] = useDebouncedValue(search.trim(), 500);
  const [selected, setSelected] = useState<number | null>(null);
  const list = useIncomingMails(processed, page, keyword);
  const mail = useMail(selected);
  const rows = list.data?.data ?? [];
  const last = list.data?.links.pagination.last_page ?? 1;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('screen.incoming_mails')}</Title>
        <Group>
          <TextInput
            leftSection={<IconSearch size={16} />}
            placeholder={t('mailbox.incoming.search')}
            aria-label={t('mailbox.incoming.search')}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
          <SegmentedControl
            value={processed ? 'done' : 'open'}
            onChange={(v) => {
              setProcessed(v === 'done');
              setPage(1);
              setSelected(null);
            }}
            data={[
              { value: 'open', label: t('mailbox.incoming.to_process') },
              { value: 'done', label: t('mailbox.incoming.processed') },
            ]}
          />
        </Group>
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Card withBorder padding={0}>
            {list.isLoading && <Loader m="md" aria-label={t('kanban.loading')} />}
            {list.isError && (
              <Alert color="red" m="md">
                {errorMessage(list.error)}
              </Alert>
            )}
            {list.data && rows.length === 0 && (
              <Text c="dimmed" p="md">
                {processed ? t('mailbox.incoming.none_processed') : t('mailbox.incoming.none')}
              </Text>
            )}
            {rows.length > 0 && (
              <Table highlightOnHover verticalSpacing="xs" aria-label={t('screen.incoming_mails')}>
                <Table.Tbody>
                  {rows.map((r) => {
                    const id = Number(r.email_id);
                    return (
                      <Table.Tr
                        key={id}
                        onClick={() => setSelected(id)}
                        style={{ cursor: 'pointer' }}
                        bg={selected === id ? 'var(--mantine-primary-color-light)' : undefined}
                        aria-selected={selected === id}
                      >
                        <Table.Td>
                          <Group justify="space-between" wrap="nowrap" gap="xs">
                            <Text size="sm" fw={600} truncate="end">
                              {String(r.email_from ?? '')}
                            </Text>
                            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                              {formatDate(String(r.email_received_datetime ?? ''), i18n.language)}
                            </Text>
                          </Group>
                          <Text size="sm" truncate="end">
                            {String(r.email_subject ?? '') || t('mailbox.incoming.no_subject')}
                          </Text>
                          <Group gap={4} mt={2}>
                            {r.ticket_id ? <Badge size="xs" variant="light">{`${t('mailbox.incoming.ticket')} ${String(r.ticket_id__label ?? r.ticket_id)}`}</Badge> : null}
                            {r.pos_id ? (
                              <Badge size="xs" variant="light" color="grape">
                                {String(r.pos_id__label ?? r.pos_id)}
                              </Badge>
                            ) : null}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            )}
          </Card>
          {last > 1 && <Pagination mt="sm" total={last} value={page} onChange={setPage} />}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Card withBorder>
            {selected === null && <Text c="dimmed">{t('mailbox.incoming.choose')}</Text>}
            {selected !== null && mail.isLoading && <Loader aria-label={t('kanban.loading')} />}
            {selected !== null && mail.isError && <Alert color="red">{errorMessage(mail.error)}</Alert>}
            {selected !== null && mail.data && (
              <Stack gap="lg">
                <MailBody mail={mail.data} />
                <Classification mail={mail.data} onDone={() => undefined} />
              </Stack>
            )}
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
