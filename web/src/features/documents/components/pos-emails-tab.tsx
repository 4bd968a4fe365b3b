/**
 * The Emails tab of a point of sale (GET /pos/emails): its received and
 * sent mails, newest first. A mail opens in the mail modal's view mode
 * (read-only, its attachments as links) with "Reply", which turns it into
 * compose mode for the point of sale; "Write an email" composes a new one.
 */
import { Alert, Badge, Button, Group, Loader, Pagination, Stack, Table, Text } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../lib/api-client';
import { useAbility } from '../../../lib/ability-context';
import { formatDate } from '../../../lib/dates';
import { i18n } from '../../../lib/i18n-instance';
import type { RecordExtraTabs } from '../../tables/components/record-page';
import { type IncomingPage, useMail } from '../api/incoming-mails';
import { MailModal, type MailView } from './mail-modal';

const PER_PAGE = 25;

export const posEmailsKey = (posId: number, page: number) => ['emails', 'pos', posId, page] as const;

function usePosEmails(posId: number, page: number) {
  return useQuery({
    queryKey: posEmailsKey(posId, page),
    queryFn: ({ signal }) => api.get<IncomingPage>('/pos/emails', { query: { pos_id: posId, page, per_page: PER_PAGE }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The addresses of a comma-separated list. */
const addresses = (list: string | null | undefined) =>
  (list ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

/** Reply: to the sender of a received mail, to the recipients of a sent one; "Re: " once. */
function replyTo(mail: MailView & { email_direction?: string }) {
  const to = mail.email_direction === 'out' ? addresses(mail.email_to) : addresses(mail.email_from);
  const subject = /^re:/i.test(mail.email_subject) ? mail.email_subject : `Re: ${mail.email_subject}`;
  return { to, subject };
}

type Open = { kind: 'view'; id: number } | { kind: 'compose'; to: string[]; subject: string } | null;

export function PosEmailsTab({ posId }: { posId: number }) {
  const { t, i18n: lang } = useTranslation();
  const qc = useQueryClient();
  const ability = useAbility();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Open>(null);
  const list = usePosEmails(posId, page);
  const mail = useMail(open?.kind === 'view' ? open.id : null);
  const rows = list.data?.data ?? [];
  const last = list.data?.links.pagination.last_page ?? 1;
  const canMail = ability.can('create', 'email');
  return (
    <Stack gap="xs" data-testid="pos-emails">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {list.data ? t('grid.row_count', { count: list.data.links.pagination.total }) : ''}
        </Text>
        {canMail && (
          <Button size="xs" leftSection={<IconMail size={14} />} onClick={() => setOpen({ kind: 'compose', to: [], subject: '' })}>
            {t('mailbox.write')}
          </Button>
        )}
      </Group>
      {list.isPending && <Loader size="sm" aria-label={t('kanban.loading')} />}
      {list.isError && <Alert color="red">{errorMessage(list.error)}</Alert>}
      {list.data && rows.length === 0 && (
        <Text size="sm" c="dimmed" p="md" ta="center">
          {t('mailbox.none_for_pos')}
        </Text>
      )}
      {rows.length > 0 && (
        <Table highlightOnHover verticalSpacing="xs" aria-label={t('mailbox.emails_tab')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('mailbox.received')}</Table.Th>
              <Table.Th>{t('mailbox.from')}</Table.Th>
              <Table.Th>{t('mailbox.to')}</Table.Th>
              <Table.Th>{t('mailbox.subject')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => {
              const id = Number(r.email_id);
              const subject = String(r.email_subject ?? '') || t('mailbox.incoming.no_subject');
              return (
                <Table.Tr key={id} style={{ cursor: 'pointer' }} onClick={() => setOpen({ kind: 'view', id })} data-email-id={id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(String(r.email_received_datetime ?? ''), lang.language)}</Table.Td>
                  <Table.Td>{String(r.email_from ?? '')}</Table.Td>
                  <Table.Td>{String(r.email_to ?? '')}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Badge size="xs" variant="light" color={r.email_direction === 'out' ? 'teal' : 'blue'}>
                        {r.email_direction === 'out' ? t('mailbox.sent_badge') : t('mailbox.received_badge')}
                      </Badge>
                      {/* A real button: the keyboard opens a mail too. */}
                      <Button variant="subtle" size="compact-sm" onClick={(e) => { e.stopPropagation(); setOpen({ kind: 'view', id }); }}>
                        {subject}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {last > 1 && <Pagination size="sm" total={last} value={page} onChange={setPage} />}
      {open?.kind === 'view' && mail.isLoading && <Loader size="sm" aria-label={t('kanban.loading')} />}
      {open?.kind === 'view' && mail.isError && <Alert color="red">{errorMessage(mail.error)}</Alert>}
      {open?.kind === 'view' && mail.data && (
        <MailModal
          mode="view"
          mail={mail.data}
          onClose={() => setOpen(null)}
          onReply={canMail ? (m) => setOpen({ kind: 'compose', ...replyTo(m as MailView & { email_direction?: string }) }) : undefined}
        />
      )}
      {open?.kind === 'compose' && (
        <MailModal
          mode="compose"
          posId={posId}
          to={open.to}
          subject={open.subject}
          onClose={() => setOpen(null)}
          onSent={() => void qc.invalidateQueries({ queryKey: ['emails', 'pos', posId] })}
        />
      )}
    </Stack>
  );
}

/** The point of sale's page: its Emails tab stands in for the generic email relation tab. */
export const posTabs: RecordExtraTabs = (id) => [
  { value: 'emails', label: i18n.t('mailbox.emails_tab'), replaces: 'pos_email_rel', panel: <PosEmailsTab posId={Number(id)} /> },
];
