/**
 * /app/incoming-mails and /app/classification-summary (one screen): the
 * received mails to process, newest first. Choosing one shows it read-only
 * with its attachments and the suggested point of sale, contract and
 * ticket; a person confirms or changes them (the mail is then attached to
 * that ticket and point of sale), creates a ticket from the mail (board,
 * column and priority chosen, the subject as its title; POST
 * /emails/{id}/ticket) or archives the mail.
 */
import { Alert, Badge, Button, Card, Grid, Group, Loader, Modal, Pagination, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArchive, IconCheck, IconSearch, IconTicket } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from '../../../components/form/remote-select';
import { useAbility } from '../../../lib/ability-context';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDefinition } from '../../tables/api/get-definition';
import {
  archiveMail,
  confirmMail,
  createTicketFromMail,
  type Decision,
  incomingKeys,
  type StoredMail,
  type TicketFromMail,
  useIncomingMails,
  useMail,
} from '../api/incoming-mails';
import { MailBody } from './mail-modal';

const REF_FIELDS = ['pos_id', 'contract_id', 'ticket_id'] as const;

function Classification({ mail, onDone }: { mail: StoredMail; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const def = useDefinition('email');
  const [decision, setDecision] = useState<Decision>({ pos_id: mail.pos_id, contract_id: mail.contract_id, ticket_id: mail.ticket_id });
  const [busy, setBusy] = useState<'confirm' | 'archive' | null>(null);
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    setDecision({ pos_id: mail.pos_id, contract_id: mail.contract_id, ticket_id: mail.ticket_id });
    setFailure(null);
  }, [mail]);
  const processed = Boolean(Number(mail.email_processed));
  // Deciding changes the mail (update on email); a ticket from it is also a
  // new ticket. Without the rights the suggestion is shown read-only.
  const ability = useAbility();
  const canDecide = ability.can('update', 'email');
  const canCreateTicket = canDecide && ability.can('create', 'ticket');
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
            readOnly={processed || !canDecide}
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
      {!processed && canDecide && (
        <Group justify="flex-end">
          {canCreateTicket && (
            <Button variant="light" leftSection={<IconTicket size={16} />} disabled={busy !== null} onClick={() => setCreating(true)}>
              {t('mailbox.incoming.create_ticket')}
            </Button>
          )}
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
      {creating && (
        <CreateTicketModal
          mail={mail}
          posId={decision.pos_id}
          contractId={decision.contract_id}
          onClose={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            void qc.invalidateQueries({ queryKey: incomingKeys.mail(mail.email_id) });
            void qc.invalidateQueries({ queryKey: ['emails', 'incoming'] });
            onDone();
          }}
        />
      )}
    </Stack>
  );
}

const TICKET_REFS = ['board_id', 'columnx_id', 'priority_id', 'pos_id'] as const;

/**
 * "Create a ticket from a mail": the board, its column and the priority
 * chosen (the ticket's own option lists, a column narrowed to its board),
 * the point of sale the suggestion's, the title the subject. The server
 * checks everything again (the boards the person sees, the column of the
 * board, rights and tenant) and writes the ticket, the link and the mail's
 * processed state together or not at all.
 */
function CreateTicketModal({
  mail,
  posId,
  contractId,
  onClose,
  onCreated,
}: {
  mail: StoredMail;
  posId: number | null;
  contractId: number | null;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { t } = useTranslation();
  const def = useDefinition('ticket');
  const [values, setValues] = useState<TicketFromMail>({
    board_id: null,
    columnx_id: null,
    priority_id: null,
    pos_id: posId,
    contract_id: contractId,
    ticket_name: (mail.email_subject ?? '').slice(0, 255),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const labels: Record<string, string | undefined> = { pos_id: mail.pos_id === posId ? mail.pos_id__label : undefined };
  const submit = async () => {
    const missing: Record<string, string> = {};
    for (const f of ['board_id', 'columnx_id', 'priority_id', 'pos_id'] as const) {
      if (!values[f]) missing[f] = t('mailbox.incoming.required');
    }
    setErrors(missing);
    setFailure(null);
    if (Object.keys(missing).length > 0) return;
    setBusy(true);
    try {
      const ticket = await createTicketFromMail(mail, values);
      notifySuccess(t('mailbox.incoming.ticket_created', { id: String(ticket.ticket_id ?? '') }));
      onCreated();
    } catch (error) {
      // The server's words: on the field it names, else above the buttons.
      if (error instanceof ApiError && error.status === 422 && Array.isArray(error.detail)) {
        const byField = error.fieldErrors();
        const shown = Object.fromEntries(Object.entries(byField).filter(([f]) => f in values));
        setErrors(shown);
        const rest = Object.entries(byField).filter(([f]) => !(f in values));
        setFailure(rest.length > 0 ? rest.map(([, m]) => m).join(' ') : null);
      } else {
        setFailure(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('mailbox.incoming.create_ticket')} closeOnClickOutside={false}>
      <form
        noValidate
        aria-label={t('mailbox.incoming.create_ticket')}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('mailbox.incoming.ticket_name')}
            value={values.ticket_name}
            maxLength={255}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setValues((x) => ({ ...x, ticket_name: v }));
            }}
            error={errors.ticket_name}
            data-field="ticket_name"
          />
          {TICKET_REFS.map((field) => {
            const attr = def.data?.attributes.find((a) => a.attribute === field);
            if (!attr?.ref) return null;
            const value = values[field];
            return (
              <RemoteSelect
                key={field}
                refDef={attr.ref}
                label={attr.attribute_i18n || field}
                value={value}
                required
                onChange={(v) =>
                  setValues((x) => ({
                    ...x,
                    [field]: typeof v === 'number' ? v : null,
                    // Another board: its column is chosen again.
                    ...(field === 'board_id' && v !== x.board_id ? { columnx_id: null } : {}),
                  }))
                }
                knownLabels={value && labels[field] ? { [String(value)]: labels[field] as string } : undefined}
                source={{ entity: 'ticket', field }}
                record={{ ...values }}
                error={errors[field]}
                nothingFound={t('mailbox.incoming.nothing_found')}
                data-field={field}
              />
            );
          })}
          <Text size="xs" c="dimmed">
            {t('mailbox.incoming.create_ticket_hint')}
          </Text>
          {failure && (
            <Alert color="red" role="alert" variant="light">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={busy} leftSection={<IconTicket size={16} />}>
              {t('mailbox.incoming.create_ticket_submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
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
