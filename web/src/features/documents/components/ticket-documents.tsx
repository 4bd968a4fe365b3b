import { ActionIcon, Anchor, Button, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { IconEye, IconMail, IconSignature } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { ticketKeys } from '../../tickets/api/keys';
import { recordDocumentsKey, useRecordDocuments } from '../api/record-documents';
import { MailModal } from './mail-modal';

/** The app's preview route of a document. */
export const previewPath = (id: number, name: string) => `/app/preview/document/${id}/${encodeURIComponent(name || String(id))}`;

/**
 * A ticket's documents with preview and sign links, and the button that
 * opens the mail modal for the ticket (attachments from these documents).
 */
export function TicketDocuments({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const ability = useAbility();
  const docs = useRecordDocuments('ticket_id', ticketId);
  const [composing, setComposing] = useState<number[] | null>(null);
  const canMail = ability.can('create', 'email');
  return (
    <Stack gap={6} data-testid="ticket-documents">
      {docs.isLoading && <Loader size="sm" aria-label={t('kanban.loading')} />}
      {docs.data && docs.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('documents.empty')}
        </Text>
      )}
      {(docs.data ?? []).map((d) => {
        const pdf = d.document_mime_type === 'application/pdf';
        return (
          <Group key={d.document_id} justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" truncate="end" style={{ minWidth: 0 }}>
              {pdf ? (
                <Anchor component={Link} to={previewPath(d.document_id, d.document_name)}>
                  {d.document_name}
                </Anchor>
              ) : (
                d.document_name
              )}
            </Text>
            <Group gap={4} wrap="nowrap">
              {pdf && (
                <Tooltip label={t('documents.preview_action')}>
                  <ActionIcon variant="subtle" component={Link} to={previewPath(d.document_id, d.document_name)} aria-label={t('documents.preview_action_named', { name: d.document_name })}>
                    <IconEye size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
              {pdf && (
                <Tooltip label={t('documents.sign_action')}>
                  <ActionIcon
                    variant="subtle"
                    component={Link}
                    to={`/app/sign-document/${d.document_id}/ticket/${ticketId}`}
                    aria-label={t('documents.sign_action_named', { name: d.document_name })}
                  >
                    <IconSignature size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
              {canMail && (
                <Tooltip label={t('mailbox.send_document')}>
                  <ActionIcon variant="subtle" onClick={() => setComposing([d.document_id])} aria-label={t('mailbox.send_document_named', { name: d.document_name })}>
                    <IconMail size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          </Group>
        );
      })}
      {canMail && (
        <Group>
          <Button size="xs" variant="light" leftSection={<IconMail size={14} />} onClick={() => setComposing([])}>
            {t('mailbox.write')}
          </Button>
        </Group>
      )}
      {composing !== null && (
        <MailModal
          mode="compose"
          ticketId={ticketId}
          attach={composing}
          onClose={() => setComposing(null)}
          onSent={() => {
            void qc.invalidateQueries({ queryKey: ticketKeys.history(ticketId) });
            void qc.invalidateQueries({ queryKey: recordDocumentsKey('ticket_id', ticketId) });
          }}
        />
      )}
    </Stack>
  );
}
